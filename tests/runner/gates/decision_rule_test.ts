import assert from "node:assert/strict";
import { binomialLowerTail } from "../../../runner/gates/stats/binomial.ts";
import { applyDecisionRule, requestsToDecide } from "../../../runner/gates/decision_rule.ts";

const e = (low: number, high: number, generatorAllowance = 0, scheduleShortfall?: string) => ({
  low,
  high,
  generatorAllowance,
  ...(scheduleShortfall === undefined ? {} : { scheduleShortfall }),
});

Deno.test("fails when the whole interval less the generator's allowance is beyond the bound", () => {
  // The demo: p99 measured 952 ms against < 50 ms, with 2.5 ms of send lag.
  assert.deepEqual(applyDecisionRule("<", 50_000, e(948_000, 958_000, 2_500)), {
    decision: "fail",
    causes: [],
  });
});

Deno.test("a run that fell behind still fails a gate beyond doubt, and cannot pass one", () => {
  const behind = "the generator fell behind";
  assert.equal(applyDecisionRule("<", 50_000, e(948_000, 958_000, 2_500, behind)).decision, "fail");
  assert.deepEqual(applyDecisionRule("<", 50_000, e(1_000, 2_000, 0, behind)), {
    decision: "inconclusive",
    causes: ["schedule"],
  });
});

Deno.test("passes when the whole interval is within the bound and the schedule held", () => {
  assert.deepEqual(applyDecisionRule("<", 10_000, e(2_500, 3_100, 5_000)), {
    decision: "pass",
    causes: [],
  });
  // The upper end at the bound: `<=` passes, `<` does not.
  assert.equal(applyDecisionRule("<=", 10_000, e(2_500, 10_000)).decision, "pass");
  assert.equal(applyDecisionRule("<", 10_000, e(2_500, 10_000)).decision, "inconclusive");
});

Deno.test("a bound inside the interval is inconclusive for sampling", () => {
  assert.deepEqual(applyDecisionRule("<", 10_000, e(9_000, 12_000)), {
    decision: "inconclusive",
    causes: ["sampling"],
  });
  assert.deepEqual(applyDecisionRule("<", 10_000, e(9_000, Infinity)).causes, ["sampling"]);
});

Deno.test("an excess the generator's own delays could explain is inconclusive, not a fail", () => {
  // Measured p99.9 10.5-11 ms against < 10 ms while the generator's pauses reach 5 ms there.
  assert.deepEqual(applyDecisionRule("<", 10_000, e(10_500, 11_000, 5_000)), {
    decision: "inconclusive",
    causes: ["generator"],
  });
  assert.equal(applyDecisionRule("<", 10_000, e(15_500, 16_000, 5_000)).decision, "fail");
});

Deno.test("lower bounds mirror it: a throughput short only while the generator fell behind", () => {
  assert.equal(applyDecisionRule(">=", 1000, e(990, 990)).decision, "fail");
  assert.equal(applyDecisionRule(">=", 1000, e(1000, 1000)).decision, "pass");
  assert.deepEqual(applyDecisionRule(">=", 1000, e(990, 990, 0, "behind")), {
    decision: "fail",
    causes: [],
  });
  assert.equal(applyDecisionRule(">=", 1000, e(900, 990, 20)).decision, "inconclusive");
});

Deno.test("requestsToDecide() finds the smallest run that would decide at the measured share", () => {
  // No request beyond p99.99 in n: a pass needs 0.9999^n <= 2.5%.
  const n = requestsToDecide(50, 0, 0.0001)!;
  assert.ok(binomialLowerTail(n, 0.0001, 0) <= 0.025);
  assert.ok(binomialLowerTail(n - 1, 0.0001, 0) > 0.025);
  assert.ok(Math.abs(n - Math.log(0.025) / Math.log(0.9999)) < 2, String(n));
  // Already decided: the answer is no more than what the run had.
  assert.ok(requestsToDecide(100_000, 0, 0.001)! <= 100_000);
  // A share exactly at the allowed one: no length decides.
  assert.equal(requestsToDecide(1000, 10, 0.01), undefined);
  // A share beyond: a fail needs more requests, found the same way.
  const more = requestsToDecide(1000, 15, 0.01)!;
  assert.ok(more > 1000, String(more));
});
