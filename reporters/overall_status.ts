/**
 * The one-word outcome of a run, as every report states it: the status the CLI's exit code stands
 * for (docs/cli.md), with the verdicts counted by status.
 *
 * @module
 */
import type { RunResult, VerdictStatus } from "../runner/result/run_result.ts";

/** A run's outcome. */
export interface OverallStatus {
  /** `invalid` for a stopped or tool-limited run, else the worst verdict, `pass` when none fail. */
  status: VerdictStatus;
  /** Verdicts by status. */
  tally: Record<VerdictStatus, number>;
  /** Why the run is invalid whatever its gates say (stopped early, tool-limited), when it is. */
  reason?: string;
  /** The tally in words: `3 gates: 1 fail, 2 pass`, or `no gates`. */
  summary: string;
}

/** Statuses from the worst to the best, the order reports list verdicts in when they sort. */
export const STATUS_SEVERITY: readonly VerdictStatus[] = [
  "fail",
  "invalid",
  "insufficient",
  "pass",
];

/**
 * The outcome of a run: `invalid` when it stopped early or was tool-limited (as `tailgate run`'s
 * exit code), else `invalid` if any verdict is, else `fail`, else `insufficient`, else `pass`.
 *
 * @example
 * ```ts
 * import { overallStatus } from "./overall_status.ts";
 * // overallStatus(result); // { status: "fail", tally: { fail: 1, pass: 2, ... }, summary: "3 gates: 1 fail, 2 pass" }
 * ```
 */
export function overallStatus(result: RunResult): OverallStatus {
  const tally: Record<VerdictStatus, number> = { fail: 0, invalid: 0, insufficient: 0, pass: 0 };
  for (const v of result.verdicts) tally[v.status]++;
  const n = result.verdicts.length;
  const summary = n === 0 ? "no gates" : `${n} gate${n === 1 ? "" : "s"}: ` +
    STATUS_SEVERITY.filter((s) => tally[s] > 0).map((s) => `${tally[s]} ${s}`).join(", ");
  const reason = !result.run.complete
    ? `the run stopped early (${result.run.stopReason})`
    : result.health.toolLimited
    ? "the run was tool-limited"
    : undefined;
  if (reason !== undefined) return { status: "invalid", tally, reason, summary };
  const status = tally.invalid > 0
    ? "invalid"
    : tally.fail > 0
    ? "fail"
    : tally.insufficient > 0
    ? "insufficient"
    : "pass";
  return { status, tally, summary };
}
