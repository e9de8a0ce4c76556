import assert from "node:assert/strict";
import { tracestateProblem } from "../../../../runner/plan/requests/validate_trace.ts";
import { MINIMAL_PLAN, parseText } from "../../../_helpers/plan_fixtures.ts";

/** MINIMAL_PLAN is 7 lines: `trace` is on line 8. */
function parseTrace(yaml: string) {
  return parseText(`${MINIMAL_PLAN}${yaml}`);
}

Deno.test("trace: true sends a traceparent, false and absent none", () => {
  assert.deepEqual(parseTrace("trace: true\n").plan?.trace, {});
  assert.equal(parseTrace("trace: false\n").plan?.trace, undefined);
  assert.equal(parseText(MINIMAL_PLAN).plan?.trace, undefined);
});

Deno.test("trace with a tracestate keeps it as written", () => {
  const { plan, issues } = parseTrace('trace: { tracestate: "acme=00f067aa0ba902b7,t@sys=a b" }\n');
  assert.deepEqual(issues, []);
  assert.deepEqual(plan?.trace, { tracestate: "acme=00f067aa0ba902b7,t@sys=a b" });
});

Deno.test("a tracestate that breaks the W3C grammar is an issue on its line, with a hint", () => {
  const { plan, issues } = parseTrace("trace:\n  tracestate: Vendor=1\n");
  assert.equal(plan, undefined);
  assert.equal(issues.length, 1);
  assert.equal(issues[0].path, "trace.tracestate");
  assert.equal(issues[0].line, 9);
  assert.equal(issues[0].col, 15);
  assert.match(issues[0].message, /key `Vendor`/);
  assert.match(issues[0].hint!, /key=value/);
});

Deno.test("trace's wrong values and unknown keys are issues", () => {
  const wrong = parseTrace("trace: yes please\n").issues;
  assert.equal(wrong[0].path, "trace");
  assert.equal(wrong[0].line, 8);
  const unknown = parseTrace("trace: { state: a=1 }\n").issues;
  assert.match(unknown[0].hint ?? "", /tracestate/);
});

Deno.test("tracestate: at most 32 members and 512 characters, no key twice, values printable", () => {
  const members = (n: number) => Array.from({ length: n }, (_, i) => `k${i}=v`).join(",");
  assert.equal(tracestateProblem(members(32)), undefined);
  assert.match(tracestateProblem(members(33))!, /at most 32 members/);
  assert.match(tracestateProblem(`a=${"x".repeat(511)}`)!, /at most 512 characters/);
  assert.match(tracestateProblem("a=1, a=2")!, /twice/);
  assert.match(tracestateProblem("a=")!, /empty/);
  assert.match(tracestateProblem("a=x=y")!, /character/);
  assert.match(tracestateProblem("novalue")!, /key=value/);
  assert.equal(tracestateProblem("a=1 , b=2"), undefined, "spaces around commas are allowed");
});

Deno.test("trace warns that it replaces a request's own traceparent", () => {
  const text = MINIMAL_PLAN.replace(
    "requests:",
    'defaults:\n  headers: { traceparent: "00-x-y-01" }\nrequests:',
  );
  const { plan, issues } = parseText(`${text}trace: true\n`);
  assert.ok(plan);
  assert.equal(issues.length, 1);
  assert.equal(issues[0].severity, "warning");
  assert.match(issues[0].message, /replaces the `traceparent`/);
  assert.deepEqual(parseText(text).issues, [], "without trace, the header is the plan's to send");
});

Deno.test("trace warns that a fixed load.seed sends the same trace ids in every run", () => {
  const seeded = MINIMAL_PLAN.replace("load:\n", "load:\n  seed: 42\n");
  assert.notEqual(seeded, MINIMAL_PLAN);
  const { plan, issues } = parseText(`${seeded}trace: true\n`);
  assert.ok(plan);
  assert.equal(issues.length, 1, JSON.stringify(issues));
  assert.equal(issues[0].severity, "warning");
  assert.match(issues[0].message, /same trace ids \(`load\.seed: 42` fixes them\)/);
  assert.match(issues[0].hint!, /leave `load\.seed` out/);
  assert.deepEqual(
    parseText(seeded).issues.map((i) => i.path),
    ["load.seed"],
    "without trace, only that the seed draws nothing",
  );
  assert.deepEqual(parseTrace("trace: true\n").issues, [], "a seed drawn per run: no warning");
});
