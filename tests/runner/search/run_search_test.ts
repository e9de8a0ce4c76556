import assert from "node:assert/strict";
import { stepOutcome, stepPlan } from "../../../runner/search/run_search.ts";
import { parsePlanText } from "../../../runner/plan/load_plan.ts";

Deno.test("a step the generator could not send is its limit, unless the server failed beyond doubt", () => {
  assert.equal(stepOutcome("pass", false), "pass");
  assert.equal(stepOutcome("fail", false), "fail");
  assert.equal(stepOutcome("inconclusive", false), "inconclusive");
  assert.equal(stepOutcome("invalid", false), "inconclusive");
  assert.equal(stepOutcome("pass", true), "limited");
  assert.equal(stepOutcome("inconclusive", true), "limited");
  assert.equal(stepOutcome("fail", true), "fail");
});

Deno.test("a step is the plan's requests at one rate, a warmup first, every SLO judged on it", () => {
  const { plan, issues } = parsePlanText(`name: s
target: http://127.0.0.1:8080
requests: [{ path: / }]
load: { connections: 8, stages: [{ rate: 1k/s, duration: 10s }] }
slo: [p99 < 10ms at 1k/s, error_rate < 1%]
search: { from: 100/s, max: 10k/s, step: 5s, warmup: 1s }
`);
  assert.ok(plan?.search, issues.map((i) => i.message).join("\n"));
  const step = stepPlan({ ...plan, search: plan.search }, {
    ratePerSec: 2_500,
    durationMs: 5_000,
    soak: false,
  });
  assert.deepEqual(
    step.load.stages.map((
      s,
    ) => [s.kind, s.warmup, s.durationMs, s.kind === "constant" && s.ratePerSec]),
    [["constant", true, 1_000, 2_500], ["constant", false, 5_000, 2_500]],
  );
  assert.equal(step.load.connections, 8);
  assert.deepEqual(step.slos.map((s) => "atRatePerSec" in s), [false, false]);
  assert.deepEqual(step.slos.map((s) => s.text), ["p99 < 10ms at 1k/s", "error_rate < 1%"]);
});
