/**
 * The one-word outcome of a run, as every report states it: the verdict the gates computed once
 * and stored in the result (runner/gates/run_verdict.ts), computed the same way for results
 * written before it was stored.
 *
 * @module
 */
import { runVerdictOf, STATUS_SEVERITY } from "../runner/gates/run_verdict.ts";
import type { RunResult, RunVerdict } from "../runner/model/run_result.ts";

export { STATUS_SEVERITY };

/** A run's outcome: the stored run verdict. */
export type OverallStatus = RunVerdict;

/**
 * The outcome of a run: `result.verdict`.
 *
 * @example
 * ```ts
 * import { overallStatus } from "./overall_status.ts";
 * // overallStatus(result); // { status: "fail", tally: { fail: 1, pass: 2, ... }, summary: "3 gates: 1 fail, 2 pass" }
 * ```
 */
export function overallStatus(result: RunResult): OverallStatus {
  return runVerdictOf(result);
}
