import assert from "node:assert/strict";
import { EXIT_CODES } from "../../../runner/model/exit_codes.ts";
import { gateExitCode } from "../../../runner/gates/gate_exit_code.ts";
import type { Verdict, VerdictStatus } from "../../../runner/model/run_result.ts";

function verdicts(...statuses: VerdictStatus[]): Verdict[] {
  return statuses.map((status, i) => ({
    kind: i % 2 === 0 ? "slo" : "regression",
    name: `gate ${i}`,
    status,
    stageIndexes: [0],
    message: "",
  }));
}

Deno.test("an invalid verdict exits 3 over inconclusive ones, even when they are allowed", () => {
  assert.equal(gateExitCode(verdicts("pass", "inconclusive", "invalid")), EXIT_CODES.invalidRun);
  assert.equal(
    gateExitCode(verdicts("inconclusive", "invalid"), { failOn: "fail" }),
    EXIT_CODES.invalidRun,
  );
  assert.equal(EXIT_CODES.invalidRun, 3);
});

Deno.test("a gate failed beyond doubt exits 1 even beside an invalid one", () => {
  assert.equal(gateExitCode(verdicts("pass", "fail", "invalid")), EXIT_CODES.gateFailed);
});

Deno.test("a failed gate exits 1, over inconclusive verdicts", () => {
  assert.equal(gateExitCode(verdicts("pass", "fail")), 1);
  assert.equal(gateExitCode(verdicts("inconclusive", "fail", "pass")), EXIT_CODES.gateFailed);
  assert.equal(gateExitCode(verdicts("fail"), { failOn: "fail" }), 1);
});

Deno.test("an undecided SLO exits 3 by default and under inconclusive, 0 under fail", () => {
  const slo = verdicts("inconclusive", "pass");
  assert.equal(gateExitCode(slo), 3);
  assert.equal(gateExitCode(slo, { failOn: "inconclusive" }), 3);
  assert.equal(gateExitCode(slo, { failOn: "inconclusive-slo" }), 3);
  assert.equal(gateExitCode(slo, { failOn: "fail" }), 0);
  // An undecided SLO beside an undecided regression check is still an undecided SLO.
  assert.equal(gateExitCode(verdicts("inconclusive", "inconclusive")), 3);
});

Deno.test("undecided regression checks alone exit 0 by default, 3 only under inconclusive", () => {
  const regression = verdicts("pass", "inconclusive");
  assert.equal(gateExitCode(regression), 0);
  assert.equal(gateExitCode(regression, { failOn: "inconclusive-slo" }), 0);
  assert.equal(gateExitCode(regression, { failOn: "inconclusive" }), 3);
  assert.equal(gateExitCode(regression, { failOn: "fail" }), 0);
});

Deno.test("all passing, or no gate at all, exits 0", () => {
  assert.equal(gateExitCode(verdicts("pass", "pass", "pass")), EXIT_CODES.ok);
  assert.equal(gateExitCode([]), 0);
});
