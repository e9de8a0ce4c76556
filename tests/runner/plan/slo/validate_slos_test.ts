import assert from "node:assert/strict";
import { parsePlanText } from "../../../../runner/plan/load_plan.ts";

/** The located errors of a plan with one request, one stage and one SLO (the stage on line 6). */
function errors(request: string, stage: string, slo: string): string[] {
  const text = `name: x\ntarget: http://127.0.0.1:8080\nrequests:\n  - ${request}\nload:\n` +
    `  stages: [${stage}]\nslo:\n  - ${slo}\n`;
  return parsePlanText(text).issues.filter((i) => i.severity === "error").map((i) =>
    `${i.line}:${i.col} ${i.message}`
  );
}

const REQUEST = "{ path: / }";

Deno.test("a stage error and an unknown `at` rate are reported together", () => {
  assert.deepEqual(
    errors(REQUEST, "{ rate: 10k/s, duration: 60sec }", "p99 < 10ms at 20k/s"),
    ["6:37 unknown unit `sec` in `60sec`", "8:5 no stage runs at 20k/s"],
  );
});

Deno.test("a broken stage whose rate is the SLO's still binds it", () => {
  assert.deepEqual(
    errors(REQUEST, "{ rate: 20k/s, duration: 0s }", "p99 < 10ms at 20k/s"),
    ["6:37 `load.stages[0].duration` must be above zero"],
  );
});

Deno.test("a stage whose rate is unknown leaves the `at` rate unjudged", () => {
  assert.deepEqual(
    errors(REQUEST, "{ rate: 0/s, duration: 10s }", "p99 < 10ms at 20k/s"),
    ["6:20 rate `0/s` must be above zero"],
  );
});

Deno.test("a request error and an unknown `for` label are reported together", () => {
  assert.deepEqual(
    errors(
      "{ name: orders, path: /orders, weight: -1 }",
      "{ rate: 10/s, duration: 10s }",
      'p99 < 10ms for "order"',
    ),
    ["4:44 `requests[0].weight` must be above 0, not -1", "8:5 no request is labelled `order`"],
  );
});

Deno.test("a step's and a journey's share of the mix is their journey's weight", () => {
  const text = `name: x
target: http://127.0.0.1:8080
requests:
  - { path: /a, weight: 1 }
  - journey: order
    weight: 3
    steps: [{ name: one, path: /x }, { name: two, path: /y }]
load:
  stages: [{ rate: 100/s, duration: 3s }]
slo: ['p99 < 1s for "order / two"', "journey.p99 < 1s", 'p99 < 1s for "GET /a"']
`;
  const warned = parsePlanText(text).issues.filter((i) => /(sends|starts) about/.test(i.message))
    .map((i) => `${i.line} ${i.message.replace(/.*(sends|starts) about /, "")}`);
  assert.deepEqual(warned, ["10 225 to it", "10 225", "10 75 to it"]);
});

Deno.test("too few requests or journeys for a percentile: counted through journeys' weights and steps", () => {
  const text = `name: x\ntarget: http://127.0.0.1:8080\nrequests:\n` +
    `  - { name: health, path: /health, weight: 1 }\n` +
    `  - journey: order\n    weight: 3\n    steps:\n      - { name: create, path: /a }\n` +
    `      - { name: read, path: /b }\n` +
    `load:\n  stages: [{ rate: 20/s, duration: 10s }]\nslo:\n` +
    `  - p99 < 50ms for "order / read"\n  - journey.p99 < 1s for "order"\n` +
    `  - p99 < 50ms for "health"\n  - p99 < 50ms\n`;
  const warnings = parsePlanText(text).issues.filter((i) => i.severity === "warning").map((i) =>
    `${i.line} ${i.message}`
  );
  // 200 arrivals: 150 journeys (each step at most once), 50 health checks; 350 requests in all.
  assert.deepEqual(warnings, [
    "13 p99 cannot pass with fewer than 368 requests (even with none beyond its bound); " +
    "the plan sends about 150 to it",
    "14 p99 cannot pass with fewer than 368 journeys (even with none beyond its bound); " +
    "the plan starts about 150",
    "15 p99 cannot pass with fewer than 368 requests (even with none beyond its bound); " +
    "the plan sends about 50 to it",
    "16 p99 cannot pass with fewer than 368 requests (even with none beyond its bound); " +
    "the plan sends about 350 to it",
  ]);
});
