import assert from "node:assert/strict";
import { type CheckedResponse, evaluateCheck } from "../../../../runner/engine/response/mod.ts";
import type { PlanCheck } from "../../../../runner/plan/types.ts";
import { parseText } from "../../../_helpers/plan_fixtures.ts";

function response(
  body: string,
  options: { status?: number; headers?: Record<string, string[]>; cutAtBytes?: number } = {},
): CheckedResponse {
  const bodyBytes = new TextEncoder().encode(body).length;
  return {
    status: options.status ?? 200,
    header: (name) => options.headers?.[name] ?? [],
    bodyText: options.cutAtBytes === undefined ? body : body.slice(0, options.cutAtBytes),
    bodyBytes,
    ...(options.cutAtBytes === undefined ? {} : { cutAtBytes: options.cutAtBytes }),
  };
}

/** The checks of a plan's one request, as the plan layer reads `check: { … }`. */
function checks(check: string): PlanCheck[] {
  const { plan, issues } = parseText(
    `name: c\ntarget: http://127.0.0.1:8080\nrequests:\n  - path: /\n    check: ${check}\n` +
      "load: { stages: [{ rate: 10/s, duration: 2s }] }\n",
  );
  assert.ok(plan, issues.map((i) => i.message).join("\n"));
  return plan.requests[0].checks!;
}

/** Each check's text and whether it passed (`ok`) or why it failed. */
function outcomes(check: string, r: CheckedResponse): string[] {
  return checks(check).map((c) => {
    const o = evaluateCheck(c, r);
    return o.pass ? `${c.text}: ok` : `${o.text}: ${o.why}`;
  });
}

const ORDER = JSON.stringify({ id: 7, state: "open", n: 3, tags: ["a"], note: null, ok: true });

Deno.test("status passes as expect does: a code, a list, a class", () => {
  assert.deepEqual(outcomes("{ status: 201 }", response("", { status: 201 })), ["status 201: ok"]);
  assert.deepEqual(outcomes("{ status: [200, 201] }", response("", { status: 500 })), [
    "status [200, 201]: the status is 500",
  ]);
  assert.deepEqual(outcomes("{ status: 2xx }", response("", { status: 204 })), ["status 2xx: ok"]);
});

Deno.test("a header check needs the header, and its pattern to find a match in it", () => {
  const json = response("", { headers: { "content-type": ["application/json; charset=utf-8"] } });
  const html = response("", { headers: { "content-type": ["text/html"] } });
  const check = "{ header: { Content-Type: json } }";
  assert.deepEqual(outcomes(check, json), ["content-type ~ json: ok"]);
  assert.deepEqual(outcomes(check, html), ["content-type ~ json: `content-type` does not match"]);
  assert.deepEqual(outcomes(check, response("")), [
    "content-type ~ json: the response has no `content-type` header",
  ]);
});

Deno.test("a JSON value equals the YAML scalar's JSON, its type included", () => {
  const check = '{ json: { /state: open, /n: 3, /ok: true, /note: null, /id: "7" } }';
  assert.deepEqual(outcomes(check, response(ORDER)), [
    "/state == open: ok",
    "/n == 3: ok",
    "/ok == true: ok",
    "/note == null: ok",
    // The string "7" is not the number 7 (the check's name drops the quotes: see the status).
    "/id == 7: `/id` is another value",
  ]);
  assert.deepEqual(outcomes("{ json: { /state: closed } }", response(ORDER)), [
    "/state == closed: `/state` is another value",
  ]);
});

Deno.test("exists and absent ask whether the pointer finds a value", () => {
  const check =
    "{ json: { /id: exists, /err: absent, /tags/0: exists, /tags/1: exists, /ok: absent } }";
  const [id, err, tag0, tag1, ok] = outcomes(check, response(ORDER));
  assert.deepEqual([id, err, tag0], ["/id exists: ok", "/err absent: ok", "/tags/0 exists: ok"]);
  assert.equal(ok, "/ok absent: `/ok` has a value");
  assert.match(
    tag1,
    /^\/tags\/1 exists: nothing is at `\/tags\/1` \(at `\/tags`, an array of 1\)$/,
  );
  assert.deepEqual(outcomes("{ json: { /note: exists } }", response(ORDER)), [
    "/note exists: ok",
  ], "null is a value");
});

Deno.test("lt, gt, eq and matches each hold or fail on their own", () => {
  const check = '{ json: { /n: { lt: 5, gt: 3, eq: 3, matches: "^[0-9]$" } } }';
  assert.deepEqual(outcomes(check, response(ORDER)), [
    "/n < 5: ok",
    "/n > 3: `/n` is not above 3",
    "/n == 3: ok",
    "/n ~ ^[0-9]$: ok",
  ]);
  assert.deepEqual(outcomes("{ json: { /state: { lt: 5, matches: ^op } } }", response(ORDER)), [
    "/state < 5: `/state` is not a number",
    "/state ~ ^op: ok",
  ]);
});

Deno.test("a JSON check on a body that is not JSON, or was cut, fails saying so", () => {
  assert.deepEqual(outcomes("{ json: { /err: absent } }", response("<html>")), [
    "/err absent: the body is not JSON",
  ]);
  assert.deepEqual(outcomes("{ json: { /id: exists } }", response(ORDER, { cutAtBytes: 10 })), [
    "/id exists: the body passed the 10 bytes read, so it is no JSON",
  ]);
});

Deno.test("body contains a string or matches a pattern; a cut body is searched as read", () => {
  const check = '{ body: { contains: open, matches: "^\\\\{\\"id\\":7" } }';
  assert.deepEqual(outcomes(check, response(ORDER)), [
    "body contains open: ok",
    'body ~ ^\\{"id":7: ok',
  ]);
  assert.deepEqual(outcomes("{ body: { contains: closed } }", response(ORDER)), [
    "body contains closed: the body does not hold it",
  ]);
  assert.deepEqual(outcomes("{ body: { contains: open } }", response(ORDER, { cutAtBytes: 8 })), [
    "body contains open: the body's first 8 bytes do not hold it (the rest was not read)",
  ]);
});

Deno.test("max_bytes counts the whole body, kept or not", () => {
  const size = new TextEncoder().encode(ORDER).length;
  assert.deepEqual(outcomes(`{ max_bytes: ${size} }`, response(ORDER)), [`max_bytes ${size}: ok`]);
  assert.deepEqual(outcomes(`{ max_bytes: ${size - 1} }`, response(ORDER, { cutAtBytes: 8 })), [
    `max_bytes ${size - 1}: the body is ${size} bytes`,
  ]);
});

Deno.test("a failed check carries its plan line", () => {
  const [status, state] = checks("{ status: 201, json: { /state: closed } }");
  const failed = evaluateCheck(state, response(ORDER, { status: 201 }));
  assert.equal(evaluateCheck(status, response(ORDER, { status: 201 })).pass, true);
  assert.deepEqual(failed, {
    pass: false,
    text: "/state == closed",
    line: 5,
    why: "`/state` is another value",
  });
});
