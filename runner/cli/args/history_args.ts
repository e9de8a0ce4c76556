/**
 * The flags that say what a stored run is filed under, for `tailgate run` and `tailgate merge`:
 * `--commit SHA`, `--branch NAME` and `--history-runs N` (the long history's length).
 *
 * @module
 */
import { DEFAULT_HISTORY_RUNS } from "../../history/mod.ts";
import { parseBranch, parseCommit } from "../../result/mod.ts";
import { err, ok, prefixed, type Problem, problem, type Result } from "../../model/mod.ts";

/**
 * The flags, as `node:util` `parseArgs` declares them.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { HISTORY_ARG_OPTIONS } from "./history_args.ts";
 * assert.deepEqual(Object.keys(HISTORY_ARG_OPTIONS), ["commit", "branch", "history-runs"]);
 * ```
 */
export const HISTORY_ARG_OPTIONS = {
  commit: { type: "string" },
  branch: { type: "string" },
  "history-runs": { type: "string" },
} as const;

/**
 * The most runs `--history-runs` keeps: about 25 MiB of file at 13 KiB a run of a 3-stage plan
 * (docs/benchmarks.md), under the 64 MiB a history may be read at (a plan of many more stages
 * gets its oldest runs dropped to stay under it, with a note).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { MAX_HISTORY_RUNS } from "./history_args.ts";
 * assert.equal(MAX_HISTORY_RUNS, 2000);
 * ```
 */
export const MAX_HISTORY_RUNS = 2000;

/** What the flags set: the commit and branch to file the run under, the history's length. */
export interface HistoryArgs {
  /** `--commit`: 7 to 40 lowercase hex digits. */
  commit?: string;
  /** `--branch`. */
  branch?: string;
  /** `--history-runs`: how many runs the long history keeps (default 500). */
  historyRuns: number;
}

/**
 * Reads the flags, or every mistake, each naming its flag.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readHistoryArgs } from "./history_args.ts";
 * assert.deepEqual(readHistoryArgs({ commit: "C0FFEE1" }), { ok: true, value: { commit: "c0ffee1", historyRuns: 500 } });
 * assert.equal(readHistoryArgs({ "history-runs": "9" }).ok, false);
 * ```
 */
export function readHistoryArgs(
  values: { commit?: string; branch?: string; "history-runs"?: string },
): Result<HistoryArgs> {
  const problems: Problem[] = [];
  const commit = values.commit === undefined ? undefined : parseCommit(values.commit);
  if (commit && !commit.ok) problems.push(...prefixed("--commit: ", commit.problems));
  const branch = values.branch === undefined ? undefined : parseBranch(values.branch);
  if (branch && !branch.ok) problems.push(...prefixed("--branch: ", branch.problems));
  const text = values["history-runs"];
  const historyRuns = text === undefined ? DEFAULT_HISTORY_RUNS : Number(text);
  if (
    !/^\d+$/.test(text ?? "0") || !Number.isInteger(historyRuns) || historyRuns < 10 ||
    historyRuns > MAX_HISTORY_RUNS
  ) {
    problems.push(problem(
      `--history-runs \`${text}\` is not a number of runs from 10 to ${MAX_HISTORY_RUNS}`,
      `give a whole number, e.g. --history-runs ${DEFAULT_HISTORY_RUNS} (the default); the ` +
        "regression gate's window of the newest 10 runs is always kept",
    ));
  }
  if (problems.length) return err(problems);
  return ok({
    ...(commit?.ok ? { commit: commit.value } : {}),
    ...(branch?.ok ? { branch: branch.value } : {}),
    historyRuns,
  });
}
