import assert from "node:assert/strict";
import {
  addCounts,
  countsProblem,
  emptyCounts,
  errorTotal,
} from "../../../runner/model/request_counts.ts";
import type { RequestCounts } from "../../../runner/model/run_result.ts";

function counts(over: Partial<RequestCounts>): RequestCounts {
  return { ...emptyCounts(), ...over };
}

Deno.test("addCounts() adds gRPC statuses by name and messages, and adds no messages to HTTP's", () => {
  const grpc = () => counts({ ok: 3, statusCodes: { OK: 3, UNAVAILABLE: 1 }, messages: 7 });
  const total = addCounts(grpc(), grpc());
  assert.deepEqual([total.statusCodes, total.messages], [{ OK: 6, UNAVAILABLE: 2 }, 14]);
  assert.equal(addCounts(emptyCounts(), grpc()).messages, 7);
  const http = addCounts(
    counts({ statusCodes: { "200": 1 } }),
    counts({ statusCodes: { "200": 2 } }),
  );
  assert.equal("messages" in http, false);
});

Deno.test("addCounts() adds every field into its first argument and returns it", () => {
  const a = counts({
    scheduled: 10,
    sent: 9,
    completed: 8,
    ok: 6,
    errors: { timeout: 1, reset: 1 },
    statusCodes: { "200": 6, "500": 1 },
    bytesSent: 100,
    bytesReceived: 1000,
  });
  const b = counts({
    scheduled: 5,
    sent: 5,
    completed: 5,
    ok: 3,
    errors: { timeout: 2, refused: 0 },
    statusCodes: { "200": 3, "404": 2 },
    bytesSent: 50,
    bytesReceived: 500,
  });
  const total = addCounts(a, b);
  assert.equal(total, a);
  assert.deepEqual(total, {
    scheduled: 15,
    sent: 14,
    completed: 13,
    ok: 9,
    errors: { timeout: 3, reset: 1, refused: 0 },
    statusCodes: { "200": 9, "500": 1, "404": 2 },
    bytesSent: 150,
    bytesReceived: 1500,
  });
  assert.deepEqual(b.errors, { timeout: 2, refused: 0 }, "the added counts are left alone");
  assert.deepEqual(b.statusCodes, { "200": 3, "404": 2 });
});

Deno.test("addCounts() into empty counts copies without sharing the nested maps", () => {
  const b = counts({ completed: 2, errors: { tls: 2 }, statusCodes: { "301": 2 } });
  const total = addCounts(emptyCounts(), b);
  assert.deepEqual(total, b);
  total.errors.tls = 99;
  total.statusCodes["301"] = 99;
  assert.deepEqual(b.errors, { tls: 2 });
  assert.deepEqual(b.statusCodes, { "301": 2 });
});

Deno.test("errorTotal() sums every error kind and is 0 without errors", () => {
  assert.equal(errorTotal({ errors: { timeout: 2, reset: 1, unexpected_status: 4 } }), 7);
  assert.equal(errorTotal({ errors: { other: undefined, protocol: 1 } }), 1);
  assert.equal(errorTotal(emptyCounts()), 0);
});

Deno.test("countsProblem() holds what the recorder keeps: every scheduled request completed, ok or an error", () => {
  const sound = counts({
    scheduled: 10,
    sent: 9,
    completed: 10,
    ok: 7,
    errors: { refused: 1, timeout: 1, unexpected_status: 1 },
    statusCodes: { "200": 7, "500": 1 },
  });
  assert.equal(countsProblem(sound, true), undefined);
  assert.equal(countsProblem(emptyCounts(), true), undefined);
  // A stopped run schedules more than completes; a complete one never does.
  const stopped = { ...sound, scheduled: 12 };
  assert.equal(countsProblem(stopped, false), undefined);
  assert.equal(
    countsProblem({ ...sound, scheduled: 1507, completed: 1500, ok: 1497 }, true),
    "scheduled 1507 but completed 1500 in a complete run: 7 requests unaccounted for " +
      "(a complete run completes every request it schedules)",
  );
  assert.equal(
    countsProblem({ ...sound, ok: 8 }, true),
    "completed 10 but ok 8 + errors 3 = 11",
  );
  assert.equal(
    countsProblem({ ...sound, completed: 13, ok: 10 }, false),
    "completed 13 of only 10 scheduled",
  );
  assert.equal(countsProblem({ ...sound, sent: 11 }, false), "sent 11 of only 10 scheduled");
  assert.equal(
    countsProblem({ ...sound, statusCodes: { "200": 11 } }, true),
    "11 responses by status code but ok 7 + unexpected_status 1 = 8 answered",
  );
});

Deno.test("countsProblem() counts a status code for each request answered, ok or unexpected_status, no other", () => {
  const answered = counts({
    scheduled: 100,
    sent: 100,
    completed: 100,
    ok: 90,
    errors: { unexpected_status: 4, timeout: 6 },
    statusCodes: { "200": 90, "503": 4 },
  });
  assert.equal(countsProblem(answered, true), undefined);
  // The forgery: 100 ok beside 7 answers by status code.
  assert.equal(
    countsProblem({ ...answered, ok: 100, errors: {}, statusCodes: { "200": 7 } }, true),
    "7 responses by status code but ok 100 + unexpected_status 0 = 100 answered",
  );
  // A timeout has no status: counted under one, the codes exceed the answers.
  assert.equal(
    countsProblem({ ...answered, statusCodes: { "200": 90, "503": 4, "504": 6 } }, true),
    "100 responses by status code but ok 90 + unexpected_status 4 = 94 answered",
  );
});

Deno.test("countsProblem() counts a rate_limited answer among the answered: its status is counted", () => {
  const counts = {
    ...emptyCounts(),
    scheduled: 3,
    sent: 3,
    completed: 3,
    ok: 1,
    errors: { rate_limited: 1, unexpected_status: 1 },
    statusCodes: { "200": 1, "429": 1, "500": 1 },
  };
  assert.equal(countsProblem(counts, true), undefined);
  assert.match(
    countsProblem({ ...counts, statusCodes: { "200": 1, "500": 1 } }, true)!,
    /ok 1 \+ unexpected_status 1 \+ rate_limited 1 = 3 answered/,
  );
});

Deno.test("addCounts() adds the Retry-After values seen, second by second", () => {
  const a = { ...emptyCounts(), retryAfterS: { "30": 2 } };
  addCounts(a, { ...emptyCounts(), retryAfterS: { "30": 1, "5": 4 } });
  addCounts(a, emptyCounts());
  assert.deepEqual(a.retryAfterS, { "5": 4, "30": 3 });
  assert.equal(addCounts(emptyCounts(), emptyCounts()).retryAfterS, undefined);
});
Deno.test("countsProblem() counts a response that failed a check as answered", () => {
  const checked = counts({
    scheduled: 10,
    sent: 10,
    completed: 10,
    ok: 6,
    errors: { check_failed: 3, unexpected_status: 1 },
    statusCodes: { "200": 9, "404": 1 },
  });
  assert.equal(countsProblem(checked, true), undefined);
  assert.equal(
    countsProblem({ ...checked, statusCodes: { "200": 6, "404": 1 } }, true),
    "7 responses by status code but ok 6 + unexpected_status 1 + check_failed 3 = 10 answered",
  );
});
