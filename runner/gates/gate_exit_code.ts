/**
 * The exit code a set of verdicts earns on their own (no run behind them, as `tailgate compare`
 * judges two stored results), by the same order as the run's verdict (run_verdict.ts).
 *
 * @module
 */
import type { ExitCode } from "../model/exit_codes.ts";
import type { Verdict } from "../model/run_result.ts";
import type { FailOn } from "./fail_on.ts";
import { onlyRegressionsUndecided, runExitCode, worstGateStatus } from "./run_verdict.ts";

/**
 * Chooses the exit code: 3 when any verdict is `invalid`, else 1 when any `fail`s, else for
 * `inconclusive` ones what `failOn` says (fail_on.ts: by default 0 when only regression checks are
 * undecided, else 3), else 0.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { gateExitCode } from "./gate_exit_code.ts";
 * assert.equal(gateExitCode([{ kind: "slo", name: "p99 < 1ms", status: "fail", stageIndexes: [1], message: "" }]), 1);
 * ```
 */
export function gateExitCode(
  verdicts: readonly Verdict[],
  options: { failOn?: FailOn } = {},
): ExitCode {
  const status = worstGateStatus(verdicts);
  const regressionOnly = status === "inconclusive" && onlyRegressionsUndecided(verdicts);
  return runExitCode({ status, ...(regressionOnly ? { regressionOnly: true } : {}) }, options);
}
