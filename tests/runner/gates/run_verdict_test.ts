import assert from "node:assert/strict";
import { EXIT_CODES } from "../../../runner/cli/exit_codes.ts";
import { judgeRun } from "../../../runner/gates/judge_run.ts";
import {
  computeRunVerdict,
  runExitCode,
  worstGateStatus,
} from "../../../runner/gates/run_verdict.ts";
import type { VerdictStatus } from "../../../runner/result/run_result.ts";
import { gateResult, scaledUs } from "../../_helpers/gate_fixtures.ts";

const v = (status: VerdictStatus) => ({ status });

Deno.test("the worst gate orders invalid, fail, insufficient, pass", () => {
  assert.equal(worstGateStatus([]), "pass");
  assert.equal(worstGateStatus([v("pass"), v("insufficient")]), "insufficient");
  assert.equal(worstGateStatus([v("insufficient"), v("fail")]), "fail");
  assert.equal(worstGateStatus([v("fail"), v("invalid")]), "invalid");
});

Deno.test("a stopped or tool-limited run is invalid whatever its gates, with the reason", () => {
  const base = { verdicts: [{ status: "pass" as const }], health: { toolLimited: false } };
  const stopped = computeRunVerdict({
    ...base,
    run: { complete: false, stopReason: "interrupted" },
  } as never);
  assert.equal(stopped.status, "invalid");
  assert.equal(stopped.reason, "the run stopped early (interrupted)");
  const limited = computeRunVerdict({
    ...base,
    run: { complete: true },
    health: { toolLimited: true },
  } as never);
  assert.deepEqual([limited.status, limited.reason], ["invalid", "the run was tool-limited"]);
  assert.equal(limited.summary, "1 gate: 1 pass");
});

Deno.test("the exit code is read off the verdict: 0, 1, 3, and 0 for insufficient when allowed", () => {
  assert.equal(runExitCode(v("pass")), EXIT_CODES.ok);
  assert.equal(runExitCode(v("fail")), EXIT_CODES.gateFailed);
  assert.equal(runExitCode(v("invalid")), EXIT_CODES.invalidRun);
  assert.equal(runExitCode(v("insufficient")), EXIT_CODES.invalidRun);
  assert.equal(runExitCode(v("insufficient"), { allowInsufficient: true }), EXIT_CODES.ok);
  assert.equal(runExitCode(v("invalid"), { allowInsufficient: true }), EXIT_CODES.invalidRun);
});

Deno.test("judging stores the run verdict in the result once", async () => {
  const result = gateResult([{
    ratePerSec: 100,
    durationMs: 10_000,
    labels: [{ label: "GET /", response: scaledUs(1_000, 1) }],
  }], { slos: ["p99 < 1ms", "p50 < 5ms"] });
  assert.equal(result.verdict, undefined);
  await judgeRun(result);
  assert.deepEqual(result.verdict, {
    status: "fail",
    tally: { fail: 1, invalid: 0, insufficient: 0, pass: 1 },
    summary: "2 gates: 1 fail, 1 pass",
  });
});
