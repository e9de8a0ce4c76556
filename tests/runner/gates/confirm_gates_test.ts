import assert from "node:assert/strict";
import { applyConfirmation } from "../../../runner/gates/confirm_gates.ts";
import type { Verdict } from "../../../runner/model/run_result.ts";

const gate = (status: Verdict["status"], causes?: Verdict["causes"]): Verdict => ({
  kind: "slo",
  name: "p99 < 5ms",
  status,
  stageIndexes: [0],
  ...(causes ? { causes } : {}),
  message: `p99 ${status}`,
});

Deno.test("applyConfirmation() settles new verdicts and leaves the gates and reruns given alone", () => {
  const first = gate("inconclusive", ["contention"]);
  const reruns = [[gate("fail")], [gate("inconclusive", ["generator"])]];
  const before = structuredClone({ first, reruns });
  const { settled, outcome } = applyConfirmation([first], reruns);
  assert.deepEqual({ first, reruns }, before);
  assert.deepEqual(outcome, { confirmed: [], cleared: [], undecided: ["p99 < 5ms"] });
  const [undecided] = settled;
  assert.equal(undecided.status, "inconclusive");
  assert.deepEqual(undecided.causes, ["contention", "generator"]);
  // The fields stay where they were: result.json reads as it did when gates were settled in place.
  assert.deepEqual(Object.keys(undecided), Object.keys(first));
  assert.match(
    undecided.message,
    /^p99 inconclusive; not confirmed after 2 reruns \(this one inconclusive, then fail, inconclusive\): it must fail twice/,
  );
});

Deno.test("applyConfirmation() clears a gate a rerun passed and confirms one that failed twice", () => {
  const { settled, outcome } = applyConfirmation(
    [gate("fail", ["contention"]), { ...gate("fail"), name: "p50 < 1ms" }],
    [[gate("pass"), { ...gate("fail"), name: "p50 < 1ms" }]],
  );
  assert.deepEqual(outcome, { confirmed: ["p50 < 1ms"], cleared: ["p99 < 5ms"], undecided: [] });
  assert.deepEqual(settled.map((v) => [v.status, v.causes]), [["pass", undefined], [
    "fail",
    undefined,
  ]]);
  assert.match(settled[0].message, /; not confirmed: rerun 1 of 1 passed it \(p99 pass\)$/);
  assert.match(
    settled[1].message,
    /; confirmed: it failed in 2 of 2 runs \(this one fail, then fail\)/,
  );
});
