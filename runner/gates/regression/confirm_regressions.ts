/**
 * `--confirm N`: a regression that turns a run red is re-measured before it is believed. The
 * caller re-runs the plan; each rerun is judged against the same history; a regression check is
 * confirmed only when it fails again in every rerun, and cleared at the first rerun where it does
 * not. For independent reruns a false alarm at rate p survives k reruns at rate p^(k+1); reruns
 * on the same runner minutes apart are not fully independent, so that is a best case. Pure: the
 * reruns are given.
 *
 * @module
 */
import type { RunResult, Verdict } from "../../model/run_result.ts";

/** What confirmation did to each regression verdict that had failed. */
export interface ConfirmationOutcome {
  /** Names of the regressions every rerun repeated. */
  confirmed: string[];
  /** Names of the regressions a rerun did not repeat (now `pass`). */
  cleared: string[];
}

/**
 * The failed regression verdicts of `verdicts`: what a rerun is for. Empty when something else
 * already decides the run (a failed SLO), so no rerun would change its outcome.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { regressionsToConfirm } from "./confirm_regressions.ts";
 * assert.deepEqual(regressionsToConfirm([]), []);
 * ```
 */
export function regressionsToConfirm(verdicts: readonly Verdict[]): Verdict[] {
  if (verdicts.some((v) => v.kind !== "regression" && v.status === "fail")) return [];
  return verdicts.filter((v) => v.kind === "regression" && v.status === "fail");
}

/**
 * Applies the reruns' regression verdicts (each rerun's, judged against the same history, in order)
 * to `verdicts` in place: a failed regression stays failed, saying so, only when every rerun failed
 * it too; otherwise it becomes `pass` with the rerun that cleared it and its figure.
 */
export function applyConfirmation(
  verdicts: Verdict[],
  reruns: readonly (readonly Verdict[])[],
): ConfirmationOutcome {
  const outcome: ConfirmationOutcome = { confirmed: [], cleared: [] };
  for (const v of regressionsToConfirm(verdicts)) {
    const clearedAt = reruns.findIndex((r) => r.find((x) => x.name === v.name)?.status !== "fail");
    if (clearedAt < 0) {
      outcome.confirmed.push(v.name);
      v.message += `; confirmed: it regressed again in each of ${reruns.length} rerun${
        reruns.length === 1 ? "" : "s"
      } (a false alarm at rate p survives that at about p^${reruns.length + 1})`;
      continue;
    }
    outcome.cleared.push(v.name);
    const again = reruns[clearedAt].find((x) => x.name === v.name);
    v.status = "pass";
    v.message += `; not confirmed: rerun ${clearedAt + 1} of ${reruns.length} ${
      again === undefined ? "had no such check" : `did not regress (${again.message})`
    }`;
  }
  return outcome;
}

/** How `judgeRun` re-measures: how many reruns at most, and how to make one (a measured result). */
export interface ConfirmOptions {
  /** At most this many reruns (`--confirm N`); they stop once every failed regression clears. */
  times: number;
  /** Runs the plan again and returns its measured, unjudged result. */
  rerun: () => Promise<RunResult>;
}
