import assert from "node:assert/strict";
import {
  errorsInWords,
  unexpectedCodes,
} from "../../../../../runner/result/read/words/error_words.ts";
import { emptyCounts } from "../../../../../runner/model/request_counts.ts";
import type { LabelResult, RequestCounts } from "../../../../../runner/model/run_result.ts";

const plan = {
  requests: [
    { label: "GET /a", expect: { codes: [], classes: [2] } },
    { label: "GET /missing", expect: { codes: [404], classes: [] } },
  ],
};

function label(
  name: string,
  counts: Partial<RequestCounts>,
): Pick<LabelResult, "label" | "counts"> {
  return { label: name, counts: { ...emptyCounts(), ...counts } };
}

Deno.test("unexpectedCodes() counts each label's answers its request did not expect, by code", () => {
  const labels = [
    label("GET /a", { statusCodes: { "200": 70, "401": 20, "404": 3 } }),
    label("GET /missing", { statusCodes: { "404": 50, "200": 2 } }),
  ];
  // The 404s of /missing were expected; /a's were not; /missing's 200s were not.
  assert.deepEqual(unexpectedCodes(plan, labels), { "401": 20, "404": 3, "200": 2 });
});

Deno.test("errorsInWords() names every unexpected status by its code, most first, then the other kinds", () => {
  const labels = [
    label("GET /a", {
      statusCodes: { "200": 70, "401": 924, "503": 2 },
      errors: { unexpected_status: 926, timeout: 3 },
    }),
  ];
  assert.equal(errorsInWords(plan, labels), "401 × 924, timeout × 3, 503 × 2");
  assert.equal(errorsInWords(plan, [label("GET /a", { statusCodes: { "200": 5 } })]), "");
});

Deno.test("errorsInWords() adds up the labels of every stage given", () => {
  const labels = [
    label("GET /a", { statusCodes: { "401": 4 }, errors: { unexpected_status: 4 } }),
    label("GET /a", { statusCodes: { "401": 6 }, errors: { unexpected_status: 6, reset: 1 } }),
  ];
  assert.equal(errorsInWords(plan, labels), "401 × 10, reset × 1");
});

Deno.test("errorsInWords() keeps unexpected statuses it cannot name by code as unexpected_status", () => {
  // A result written before status codes added up, or a label its plan does not name.
  const labels = [
    label("GET /a", { statusCodes: { "401": 2 }, errors: { unexpected_status: 5 } }),
    label("GET /gone", { statusCodes: { "500": 1 }, errors: { unexpected_status: 1 } }),
  ];
  assert.equal(errorsInWords(plan, labels), "unexpected_status × 4, 401 × 2");
});

Deno.test("errorsInWords() writes large counts with thousands separators", () => {
  const labels = [
    label("GET /a", { statusCodes: { "429": 12345 }, errors: { unexpected_status: 12345 } }),
  ];
  assert.equal(errorsInWords(plan, labels), "429 × 12,345");
});

Deno.test("rate-limited answers are words of their own, not their status codes twice", () => {
  // 4 × 429 (rate limited) and 5 × 503, of which 2 carried a Retry-After (rate limited).
  const l = label("GET /a", {
    statusCodes: { "200": 1, "429": 4, "503": 5 },
    errors: { rate_limited: 6, unexpected_status: 3 },
  });
  assert.deepEqual(unexpectedCodes(plan, [l]), { "503": 3 });
  assert.equal(errorsInWords(plan, [l]), "rate_limited × 6, 503 × 3");
});

Deno.test("a gRPC label's unexpected statuses are words by name, never rate-limited ones", () => {
  const grpc = {
    requests: [{ label: "Greeter/SayHello", expect: { codes: [1000], classes: [] } }],
  };
  const counts = {
    ok: 8,
    statusCodes: { OK: 8, UNAVAILABLE: 12, RESOURCE_EXHAUSTED: 2 },
    errors: { unexpected_status: 14, timeout: 1 },
  };
  const labels = [label("Greeter/SayHello", counts)];
  assert.deepEqual(unexpectedCodes(grpc, labels), { UNAVAILABLE: 12, RESOURCE_EXHAUSTED: 2 });
  assert.equal(
    errorsInWords(grpc, labels),
    "UNAVAILABLE × 12, RESOURCE_EXHAUSTED × 2, timeout × 1",
  );
});
