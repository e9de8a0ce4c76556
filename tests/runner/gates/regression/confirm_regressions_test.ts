import assert from "node:assert/strict";
import {
  applyConfirmation,
  regressionsToConfirm,
} from "../../../../runner/gates/regression/confirm_regressions.ts";
import type { Verdict, VerdictStatus } from "../../../../runner/model/run_result.ts";

const v = (name: string, status: VerdictStatus, kind: Verdict["kind"] = "regression"): Verdict => ({
  kind,
  name,
  status,
  stageIndexes: [0],
  message: `${name} ${status}`,
});

Deno.test("regressionsToConfirm() takes failed regressions, none when an SLO fails anyway", () => {
  const verdicts = [v("p50", "fail"), v("p99", "pass"), v("p50 < 5ms", "pass", "slo")];
  assert.deepEqual(regressionsToConfirm(verdicts).map((x) => x.name), ["p50"]);
  assert.deepEqual(regressionsToConfirm([...verdicts, v("p99 < 1ms", "fail", "slo")]), []);
});

Deno.test("applyConfirmation() keeps what every rerun repeats and clears the rest at the first miss", () => {
  const verdicts = [v("p50", "fail"), v("p99", "fail"), v("max", "pass")];
  const outcome = applyConfirmation(verdicts, [
    [v("p50", "fail"), v("p99", "fail")],
    [v("p50", "fail"), v("p99", "pass")],
  ]);
  assert.deepEqual(outcome, { confirmed: ["p50"], cleared: ["p99"] });
  assert.deepEqual(verdicts.map((x) => x.status), ["fail", "pass", "pass"]);
  assert.match(verdicts[0].message, /confirmed: it regressed again in each of 2 reruns .* p\^3/);
  assert.match(verdicts[1].message, /not confirmed: rerun 2 of 2 did not regress \(p99 pass\)/);
  // A rerun that lacks the check (a stage that did not run) does not confirm it.
  const lone = [v("p90", "fail")];
  applyConfirmation(lone, [[]]);
  assert.equal(lone[0].status, "pass");
  assert.match(lone[0].message, /had no such check/);
});
