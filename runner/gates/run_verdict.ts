/**
 * The run's overall verdict, in one place: computed once when the run is judged, stored in the
 * result (`result.verdict`), and read by the exit code, every reporter and the GitHub Action. The
 * order: a run that stopped early is `invalid` whatever its gates say, unless fail-fast stopped it
 * with the generator keeping up (fail_fast_verdict.ts); a run whose target stopped answering is
 * `fail` (and exits with the target-unreachable code); a run fail-fast stopped is `fail`; else its
 * gates' verdict by the one order (runner/result/read/verdict_order.ts): any gate that `fail`ed
 * (beyond doubt, whatever the tool's health: the decision rule already allowed for it), then
 * `invalid`, then `inconclusive`; else `pass`. Readers read the stored verdict
 * (runner/result/read/stored_verdict.ts); the exit code it earns is `exitCodeOf` (fail_on.ts).
 *
 * @module
 */
import type { RunResult, RunVerdict, VerdictStatus } from "../model/mod.ts";
import {
  failFastReason,
  gatesVerdict,
  soundFailFastStop,
  statusTally,
  type StoppedRun,
  targetLost,
} from "../result/mod.ts";

/**
 * Computes the run's verdict from its gates and its soundness. Call once, after judging; store it.
 */
export function computeRunVerdict(
  result: Pick<RunResult, "verdicts" | "run" | "intervals"> & StoppedRun,
): RunVerdict {
  const tally: Record<VerdictStatus, number> = { fail: 0, invalid: 0, inconclusive: 0, pass: 0 };
  for (const v of result.verdicts) tally[v.status]++;
  const n = result.verdicts.length;
  const summary = n === 0 ? "no gates" : `${n} gate${n === 1 ? "" : "s"}: ` +
    statusTally(result.verdicts.map((v) => v.status));
  const certain = soundFailFastStop(result) !== undefined;
  if (!result.run.complete && !certain) {
    return {
      status: "invalid",
      tally,
      reason: result.run.stoppedBy
        ? failFastReason(result)
        : `the run stopped early (${result.run.stopReason})`,
      summary,
    };
  }
  const lost = targetLost(result.intervals);
  if (lost !== undefined) {
    return {
      status: "fail",
      tally,
      reason: `the target stopped answering ${(lost.sinceMs / 1000).toFixed(1)} s into the run: ` +
        `${lost.failedRequests} requests from then on failed on the connection`,
      targetLost: lost,
      summary,
    };
  }
  if (certain) return { status: "fail", tally, reason: failFastReason(result), summary };
  const { status, ...undecided } = gatesVerdict(result.verdicts);
  return { status, tally, summary, ...undecided };
}
