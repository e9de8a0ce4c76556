/**
 * The settings the changes were found with, in words (both formats print them once), and each
 * series' minimum change with its reason. Pure.
 *
 * @module
 */
import type { HistorySettings, PlanHistory } from "../../runner/model/mod.ts";
import { seriesPlace } from "./history_figures.ts";

/** The minimum change in words: `--min-change`'s, or each series' own. */
function minimumText(s: HistorySettings): string {
  return s.minMagnitude === undefined
    ? "each series' own minimum (3 robust SDs of its runs, from 1% to 5%)"
    : `${Number((s.minMagnitude * 100).toPrecision(3))}% (--min-change)`;
}

/**
 * How the changes were found and when the history fails, in one sentence.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { settingsText } from "./history_settings.ts";
 * assert.equal(
 *   settingsText({ maxPValue: 0.001, windowRuns: 50, failRecent: 0 }),
 *   "Changes found by E-divisive means, each tested by shuffling (p ≤ 0.001, windows of 50 runs), kept " +
 *     "unless their whole 95% interval lies within each series' own minimum (3 robust SDs of its runs, " +
 *     "from 1% to 5%); report only (--fail-recent 0).",
 * );
 * ```
 */
export function settingsText(s: HistorySettings): string {
  const fails = s.failRecent > 0
    ? `a worse change within the newest ${s.failRecent} run${s.failRecent === 1 ? "" : "s"} ` +
      `fails (--fail-recent ${s.failRecent})`
    : "report only (--fail-recent 0)";
  const runs = runsText(s);
  return `${runs === undefined ? "" : `Runs looked at: ${runs}. `}Changes found by E-divisive ` +
    `means, each tested by shuffling (p ≤ ${s.maxPValue}, windows of ${s.windowRuns} runs), kept ` +
    `unless their whole 95% interval lies within ${minimumText(s)}; ${fails}.`;
}

/** Which runs of each history were looked at, when not all: `--last`, `--since`. */
function runsText(s: HistorySettings): string | undefined {
  const since = s.sinceCommit === undefined ? "" : `from commit ${s.sinceCommit} on (--since)`;
  const last = s.lastRuns === undefined ? "" : `the newest ${s.lastRuns} (--last)`;
  if (since === "" && last === "") return undefined;
  return since !== "" && last !== "" ? `${last}, ${since}` : since || last;
}

/**
 * The settings as name–value pairs (the page's settings table).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { settingsPairs } from "./history_settings.ts";
 * assert.deepEqual(
 *   settingsPairs({ maxPValue: 0.001, windowRuns: 50, minMagnitude: 0.05, failRecent: 3 })[0],
 *   ["largest p-value", "0.001"],
 * );
 * ```
 */
export function settingsPairs(s: HistorySettings): Array<[string, string]> {
  return [
    ["largest p-value", String(s.maxPValue)],
    ["window", `${s.windowRuns} runs`],
    ["smallest change", minimumText(s)],
    ["fails on", s.failRecent > 0 ? `a worse change in the newest ${s.failRecent}` : "nothing"],
    ["runs looked at", runsText(s) ?? "every stored run"],
  ];
}

/** The minimum-change table's columns, in the order of {@linkcode minChangeRows}' cells. */
export const MIN_CHANGE_HEADER = ["metric", "where", "min change", "why"];

/**
 * A plan's series that were looked at, each with its minimum change and why (text cells).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { minChangeRows } from "./history_settings.ts";
 * const series = {
 *   stage: "steady", stageIndex: 0, metric: "p50" as const, unit: "us" as const, values: [],
 *   minChange: { value: 0.012, spread: 0.004, reason: "3 robust SDs of its runs (SD 0.4%)" },
 * };
 * assert.deepEqual(minChangeRows({ series: [series] }), [
 *   ["p50", "stage steady", "1.2%", "3 robust SDs of its runs (SD 0.4%)"],
 * ]);
 * ```
 */
export function minChangeRows(plan: Pick<PlanHistory, "series">): string[][] {
  return plan.series.flatMap((s) =>
    s.minChange === undefined ? [] : [[
      s.metric.replace("_", " "),
      seriesPlace(s),
      `${Number((s.minChange.value * 100).toPrecision(2))}%`,
      s.minChange.reason,
    ]]
  );
}
