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
    gateExitCode(verdicts("inconclusive", "invalid"), { allowInconclusive: true }),
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
  assert.equal(gateExitCode(verdicts("fail"), { allowInconclusive: true }), 1);
});

Deno.test("an inconclusive verdict exits 3 unless allowInconclusive, then 0", () => {
  assert.equal(gateExitCode(verdicts("pass", "inconclusive")), 3);
  assert.equal(gateExitCode(verdicts("pass", "inconclusive"), { allowInconclusive: false }), 3);
  assert.equal(gateExitCode(verdicts("pass", "inconclusive"), { allowInconclusive: true }), 0);
});

Deno.test("all passing, or no gate at all, exits 0", () => {
  assert.equal(gateExitCode(verdicts("pass", "pass", "pass")), EXIT_CODES.ok);
  assert.equal(gateExitCode([]), 0);
});
