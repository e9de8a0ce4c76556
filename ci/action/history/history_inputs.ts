/**
 * The history inputs (`history`, `history-recent`, `history-fail`): whether the job runs
 * `tailgate history` after its plans, how many newest runs count as new, and whether a worse new
 * change turns the job red.
 *
 * @module
 */
import { err, ok, problems, type Result } from "../../../runner/model/mod.ts";

/** The values of the `history` input: `auto` runs it when the job updated the history. */
export const HISTORY_VALUES = ["auto", "true", "false"] as const;

/** The most runs `history-recent` may count: the long history's default length. */
export const MAX_RECENT_RUNS = 500;

/** How the job runs `tailgate history`, when it does. */
export interface HistoryInputs {
  /** `--fail-recent N`: a change within the newest N runs is new (put in the summary). */
  recentRuns: number;
  /** A worse new change turns the job red (`history-fail: true`); else it is reported only. */
  failOnWorse: boolean;
}

/** The raw inputs and what the job does besides, which `history` depends on. */
export interface HistoryInputValues {
  /** The `history` input: `auto`, `true` or `false`. */
  history: string;
  /** The `history-recent` input. */
  recent: string;
  /** The `history-fail` input. */
  fail: string;
  /** The job updates the history (`auto` then runs it). */
  updateBaseline: boolean;
  /** The job reads a baseline folder (`baseline` is not `none`, and it is no shard). */
  hasBaseline: boolean;
  /** The A/B mode: no history is read or written. */
  ab: boolean;
}

/**
 * Reads the history inputs: undefined when the job runs no `tailgate history` (`false`, or `auto`
 * on a job that does not update the history), or every problem with them.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readHistoryInputs } from "./history_inputs.ts";
 * const read = readHistoryInputs({ history: "auto", recent: "10", fail: "false",
 *   updateBaseline: true, hasBaseline: true, ab: false });
 * assert.deepEqual(read, { ok: true, value: { recentRuns: 10, failOnWorse: false } });
 * ```
 */
export function readHistoryInputs(v: HistoryInputValues): Result<HistoryInputs | undefined> {
  const errors: string[] = [];
  if (!(HISTORY_VALUES as readonly string[]).includes(v.history)) {
    errors.push(`history: \`${v.history}\` is not auto, true or false`);
  }
  const recentRuns = Number(v.recent);
  if (!(/^\d+$/.test(v.recent) && recentRuns >= 1 && recentRuns <= MAX_RECENT_RUNS)) {
    errors.push(
      `history-recent: \`${v.recent}\` is not a whole number of runs from 1 to ${MAX_RECENT_RUNS}`,
    );
  }
  if (v.fail !== "true" && v.fail !== "false") {
    errors.push(`history-fail: \`${v.fail}\` is not true or false`);
  }
  if (v.history === "true" && !v.hasBaseline) {
    errors.push(
      "history: true needs a baseline (the history lives in baseline-dir; a shard job has none, " +
        "its merge job keeps it); set baseline, or history: auto",
    );
  }
  if (v.history === "true" && v.ab) {
    errors.push("history: true and the A/B mode exclude each other: an A/B run keeps no history");
  }
  if (errors.length) return err(problems(errors));
  const on = v.history === "true" || (v.history === "auto" && v.updateBaseline && !v.ab);
  return ok(on ? { recentRuns, failOnWorse: v.fail === "true" } : undefined);
}
