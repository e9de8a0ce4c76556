import assert from "node:assert/strict";
import { parsePlanText } from "../../../../runner/plan/load_plan.ts";

const located = (text: string) =>
  parsePlanText(text).issues.filter((i) => i.severity === "error").map((i) =>
    `${i.line}:${i.col} ${i.message}`
  );

Deno.test("a stage error and an unknown `at` rate are reported together", () => {
  assert.deepEqual(
    located(`name: x
target: http://127.0.0.1:8080
requests: [{ path: / }]
load:
  stages:
    - { rate: 10k/s, duration: 60sec }
slo:
  - p99 < 10ms at 20k/s
`),
    ["6:32 unknown unit `sec` in `60sec`", "8:5 no stage runs at 20k/s"],
  );
});

Deno.test("a broken stage whose rate is the SLO's still binds it", () => {
  assert.deepEqual(
    located(`name: x
target: http://127.0.0.1:8080
requests: [{ path: / }]
load:
  stages:
    - { rate: 20k/s, duration: 0s }
slo:
  - p99 < 10ms at 20k/s
`),
    ["6:32 `load.stages[0].duration` must be above zero"],
  );
});

Deno.test("a stage whose rate is unknown leaves the `at` rate unjudged", () => {
  assert.deepEqual(
    located(`name: x
target: http://127.0.0.1:8080
requests: [{ path: / }]
load:
  stages:
    - { rate: 0/s, duration: 10s }
slo:
  - p99 < 10ms at 20k/s
`),
    ["6:15 rate `0/s` must be above zero"],
  );
});

Deno.test("a request error and an unknown `for` label are reported together", () => {
  assert.deepEqual(
    located(`name: x
target: http://127.0.0.1:8080
requests:
  - { name: orders, path: /orders, weight: -1 }
load:
  stages:
    - { rate: 10/s, duration: 10s }
slo:
  - p99 < 10ms for "order"
`),
    [
      "4:44 `requests[0].weight` must be above 0, not -1",
      "9:5 no request is labelled `order`",
    ],
  );
});
