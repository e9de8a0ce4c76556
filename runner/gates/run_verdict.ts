/**
 * The run's overall verdict, in one place: computed once when the run is judged, stored in the
 * result (`result.verdict`), and read by the exit code, every reporter and the GitHub Action. The
 * order: a run that stopped early is `invalid` whatever its gates say, unless fail-fast stopped it
 * with the generator keeping up (fail_fast_verdict.ts); a run whose target stopped answering is
 * `fail` (and exits with the target-unreachable code); a run fail-fast stopped is `fail`; else any
 * gate that `fail`ed
 * (beyond doubt, whatever the tool's health: the decision rule already allowed for it), then
 * `invalid`, then `inconclusive`; else `pass`.
 *
 * @module
 */
import { EXIT_CODES, type ExitCode } from "../model/exit_codes.ts";
import { DEFAULT_FAIL_ON, type FailOn, failsUnder, type VerdictScope } from "./fail_on.ts";
import type { RunResult, RunVerdict, Verdict, VerdictStatus } from "../model/run_result.ts";
import { targetLost } from "./target_lost.ts";
import { failFastReason, soundFailFastStop, type StoppedRun } from "./fail_fast/mod.ts";

/** Statuses from the worst to the best, the order reports list verdicts in when they sort. */
export const STATUS_SEVERITY: readonly VerdictStatus[] = [
  "fail",
  "invalid",
  "inconclusive",
  "pass",
];

/**
 * The worst status among gate verdicts: `fail`, then `invalid`, then `inconclusive`, else `pass`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { worstGateStatus } from "./run_verdict.ts";
 * assert.equal(worstGateStatus([]), "pass");
 * ```
 */
export function worstGateStatus(verdicts: readonly Pick<Verdict, "status">[]): VerdictStatus {
  const has = (s: VerdictStatus) => verdicts.some((v) => v.status === s);
  return has("fail")
    ? "fail"
    : has("invalid")
    ? "invalid"
    : has("inconclusive")
    ? "inconclusive"
    : "pass";
}

/**
 * Whether the undecided verdicts among `verdicts` are all regression checks (and there is one):
 * what `regressionOnly` on the run's verdict records.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { onlyRegressionsUndecided } from "./run_verdict.ts";
 * assert.equal(onlyRegressionsUndecided([{ kind: "regression", status: "inconclusive" }]), true);
 * assert.equal(onlyRegressionsUndecided([{ kind: "slo", status: "inconclusive" }]), false);
 * ```
 */
export function onlyRegressionsUndecided(
  verdicts: readonly Pick<Verdict, "kind" | "status">[],
): boolean {
  const undecided = verdicts.filter((v) => v.status === "inconclusive");
  return undecided.length > 0 && undecided.every((v) => v.kind === "regression");
}

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
    STATUS_SEVERITY.filter((s) => tally[s] > 0).map((s) => `${tally[s]} ${s}`).join(", ");
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
  const status = worstGateStatus(result.verdicts);
  const regressionOnly = status === "inconclusive" && onlyRegressionsUndecided(result.verdicts);
  return { status, tally, summary, ...(regressionOnly ? { regressionOnly: true as const } : {}) };
}

/**
 * The result's stored verdict, or, for a result written before verdicts were stored (format
 * version 1) or not judged yet, the same computation.
 */
export function runVerdictOf(
  result: Pick<RunResult, "verdict" | "verdicts" | "run" | "intervals"> & StoppedRun,
): RunVerdict {
  return result.verdict ?? computeRunVerdict(result);
}

/**
 * The exit code a verdict earns (docs/cli.md): 0 pass, 1 fail, 3 invalid, 4 when the target
 * stopped answering; for inconclusive, 3 when `failOn` (default `inconclusive-slo`, fail_on.ts)
 * makes it red, else 0.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { runExitCode } from "./run_verdict.ts";
 * assert.equal(runExitCode({ status: "inconclusive", regressionOnly: true }), 0); // a warning
 * assert.equal(runExitCode({ status: "inconclusive" }), 3); // an SLO is undecided
 * assert.equal(runExitCode({ status: "inconclusive" }, { failOn: "fail" }), 0);
 * ```
 */
export function runExitCode(
  verdict: VerdictScope & Pick<RunVerdict, "targetLost">,
  options: { failOn?: FailOn } = {},
): ExitCode {
  if (verdict.targetLost !== undefined) return EXIT_CODES.unreachable;
  switch (verdict.status) {
    case "pass":
      return EXIT_CODES.ok;
    case "fail":
      return EXIT_CODES.gateFailed;
    case "inconclusive":
      return failsUnder(verdict, options.failOn ?? DEFAULT_FAIL_ON)
        ? EXIT_CODES.invalidRun
        : EXIT_CODES.ok;
    case "invalid":
      return EXIT_CODES.invalidRun;
  }
}
