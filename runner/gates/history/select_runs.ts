/**
 * The runs of a long history that `tailgate history` looks at: all of them, the newest N
 * (`--last N`), or those from the first run of a commit on (`--since COMMIT`, the stored commit's
 * prefix); both together, the newest N of those from the commit. A commit the history does not
 * hold is an error that names the commits it does hold, briefly. Pure.
 *
 * @module
 */
import { err, ok, problem, type Result } from "../../model/mod.ts";
import { shortCommit } from "../../model/mod.ts";
import type { HistoryEntry } from "../../history/mod.ts";

/** Which runs to look at. */
export interface RunSelection {
  /** `--last N`: the newest N runs. */
  lastRuns?: number;
  /** `--since COMMIT`: the runs from the first whose commit starts with this (any case) on. */
  sinceCommit?: string;
}

/** The runs selected, and a note saying which when not all. */
export interface SelectedRuns {
  entries: HistoryEntry[];
  note?: string;
}

/** How many of a history's newest commits an error names. */
const NAMED_COMMITS = 5;

/**
 * The runs of `entries` (oldest first) that `selection` keeps, for the history `plan`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { selectRuns } from "./select_runs.ts";
 * const run = (commit: string) => ({ date: "2026-01-01T00:00:00Z", commit, runner: "r", plan: "p", stages: [] });
 * const entries = ["aaa1111", "bbb2222", "ccc3333", "ddd4444"].map(run) as never[];
 * const since = selectRuns(entries, "shop", { sinceCommit: "BBB" });
 * assert.ok(since.ok && since.value.entries.length === 3);
 * const last = selectRuns(entries, "shop", { lastRuns: 2 });
 * assert.ok(last.ok && last.value.note === "the newest 2 of 4 stored runs (--last 2)");
 * assert.equal(selectRuns(entries, "shop", { sinceCommit: "eee" }).ok, false);
 * ```
 */
export function selectRuns(
  entries: readonly HistoryEntry[],
  plan: string,
  selection: RunSelection,
): Result<SelectedRuns> {
  const { sinceCommit, lastRuns } = selection;
  let selected = [...entries];
  let since: string | undefined;
  if (sinceCommit !== undefined) {
    const prefix = sinceCommit.toLowerCase();
    const matches = entries.filter((e) => e.commit?.toLowerCase().startsWith(prefix));
    const commits = [...new Set(matches.map((e) => e.commit!))];
    if (commits.length === 0) return err(sinceMiss(entries, plan, sinceCommit));
    if (commits.length > 1) {
      return err(problem(
        `--since \`${sinceCommit}\` matches ${commits.length} commits of "${plan}": ` +
          `${commits.slice(0, NAMED_COMMITS).map(shortCommit).join(", ")}` +
          `${commits.length > NAMED_COMMITS ? ", …" : ""}`,
        "give more of the commit",
      ));
    }
    selected = entries.slice(entries.indexOf(matches[0]));
    since = shortCommit(commits[0]);
  }
  const last = lastRuns !== undefined && lastRuns < selected.length ? lastRuns : undefined;
  if (last !== undefined) selected = selected.slice(-last);
  if (since === undefined && last === undefined) return ok({ entries: selected });
  const of = `of ${entries.length} stored runs`;
  const note = since === undefined
    ? `the newest ${last} ${of} (--last ${last})`
    : last === undefined
    ? `${selected.length} ${of}: from commit ${since} on (--since ${sinceCommit})`
    : `${selected.length} ${of}: the newest from commit ${since} on (--since ${sinceCommit} ` +
      `--last ${last})`;
  return ok({ entries: selected, note });
}

/** A commit the history does not hold: which commits it does hold, the newest few. */
function sinceMiss(entries: readonly HistoryEntry[], plan: string, since: string) {
  const commits = [...new Set(entries.flatMap((e) => e.commit ? [e.commit] : []))];
  if (commits.length === 0) {
    return problem(
      `--since \`${since}\`: no stored run of "${plan}" has a commit`,
      "name the runs by count instead, with --last N",
    );
  }
  const newest = commits.slice(-NAMED_COMMITS).reverse().map(shortCommit);
  return problem(
    `--since \`${since}\`: no stored run of "${plan}" measured a commit starting so; its ` +
      `${entries.length} runs measured ${commits.length} commit${
        commits.length === 1 ? "" : "s"
      }, ` +
      `from ${shortCommit(commits[0])} to ${shortCommit(commits[commits.length - 1])}`,
    `give one of them (the newest: ${newest.join(", ")}), or --last N`,
  );
}
