/**
 * The run's own soundness as gates: a run that stopped early, or whose target stopped answering,
 * gets a `validity` verdict beside its SLO and regression verdicts, so every report lists and
 * counts the same gates (the terminal's "5 gates" is JUnit's five test cases). The run's overall
 * verdict (run_verdict.ts) still reads the run itself, so results judged before these verdicts
 * existed come out the same.
 *
 * @module
 */
import type { RunResult, Verdict } from "../../model/mod.ts";
import { targetLost } from "./target_lost.ts";
import { failFastReason, soundFailFastStop, type StoppedRun } from "./fail_fast_stop.ts";

/** The names of the soundness gates, for readers that must tell them from others. */
export const SOUNDNESS_GATES = {
  complete: "run complete",
  targetAnswered: "target answered to the end",
} as const;

/**
 * The soundness verdicts the run earns: none for a run that ran to its end with its target
 * answering.
 */
export function soundnessVerdicts(
  result: Pick<RunResult, "run" | "intervals"> & StoppedRun,
): Verdict[] {
  const verdicts: Verdict[] = [];
  // A fail-fast stop the generator kept up with is the stopping SLO's failure, not a gate of its own.
  if (!result.run.complete && soundFailFastStop(result) === undefined) {
    verdicts.push({
      kind: "validity",
      name: SOUNDNESS_GATES.complete,
      status: "invalid",
      stageIndexes: [],
      message: result.run.stoppedBy
        ? `${failFastReason(result)}; its figures are what was measured until then`
        : `the run stopped early (${result.run.stopReason}) after ` +
          `${(result.run.durationMs / 1000).toFixed(1)} s: its figures are what was measured ` +
          "until then and do not judge the server; run the plan to its end",
    });
  }
  const lost = targetLost(result.intervals);
  if (lost !== undefined) {
    verdicts.push({
      kind: "validity",
      name: SOUNDNESS_GATES.targetAnswered,
      status: "fail",
      stageIndexes: [],
      message: `the target stopped answering ${(lost.sinceMs / 1000).toFixed(1)} s into the ` +
        `run: ${lost.failedRequests} requests from then on failed on the connection`,
    });
  }
  return verdicts;
}

/**
 * Whether the result's gates already hold its soundness (judged by this version): readers of an
 * older result say it themselves, once.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { holdsSoundness } from "./run_soundness.ts";
 * assert.equal(holdsSoundness({ verdicts: [] }), false);
 * ```
 */
export function holdsSoundness(result: Pick<RunResult, "verdicts">): boolean {
  const names: readonly string[] = Object.values(SOUNDNESS_GATES);
  return result.verdicts.some((v) => v.kind === "validity" && names.includes(v.name));
}
