/**
 * The history's figures in words, shared by history.md and history.html: a commit by its first 7
 * characters, a run named by its commit (or its place and date), a series' value in its unit, a
 * relative change as a signed percent, the place of a series (stage and label), and a plan's runs
 * in one line. Pure; text only (each format escapes it).
 *
 * @module
 */
import {
  type HistoryRunRef,
  type HistorySeries,
  type HistoryUnit,
  type PlanHistory,
  shortCommit,
} from "../../runner/model/mod.ts";
import { formatDurationMs, formatRatePerSec } from "../../runner/plan/mod.ts";

/**
 * A run's date as the pages print it: the ISO date and time to the minute, in UTC.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { runDateText } from "./history_figures.ts";
 * assert.equal(runDateText("2026-11-02T03:04:05.678Z"), "2026-11-02 03:04Z");
 * ```
 */
export function runDateText(date: string): string {
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})/.exec(date);
  return m === null ? date : `${m[1]} ${m[2]}Z`;
}

/**
 * A run as a reader finds it: its commit's first 7 characters, else its place (1-based) and date.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { runName } from "./history_figures.ts";
 * assert.equal(
 *   runName({ date: "2026-11-02T03:04:05Z", commit: "9fceb02d0ae5", runner: "r", plan: "p" }, 4),
 *   "9fceb02",
 * );
 * assert.equal(
 *   runName({ date: "2026-11-02T03:04:05Z", runner: "r", plan: "p" }, 4),
 *   "run 5 (2026-11-02 03:04Z)",
 * );
 * ```
 */
export function runName(run: HistoryRunRef | undefined, index: number): string {
  if (run?.commit) return shortCommit(run.commit);
  return `run ${index + 1}${run ? ` (${runDateText(run.date)})` : ""}`;
}

/**
 * A series' value in its unit: a latency (microseconds) as a duration, a rate, a fraction as a
 * percent; "–" for none.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { historyValueText } from "./history_figures.ts";
 * assert.equal(historyValueText(1500, "us"), "1.5ms");
 * assert.equal(historyValueText(0.0025, "fraction"), "0.25%");
 * ```
 */
export function historyValueText(value: number | null | undefined, unit: HistoryUnit): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return "–";
  if (unit === "us") return formatDurationMs(value / 1000);
  if (unit === "per_sec") return formatRatePerSec(value);
  return `${Number((value * 100).toPrecision(3))}%`;
}

/**
 * A relative change as a signed percent: one decimal below 10%, whole percents above.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { signedPercent } from "./history_figures.ts";
 * assert.equal(signedPercent(0.1234), "+12%");
 * assert.equal(signedPercent(-0.049), "-4.9%");
 * ```
 */
export function signedPercent(fraction: number): string {
  if (!Number.isFinite(fraction)) return fraction > 0 ? "+∞%" : fraction < 0 ? "-∞%" : "–";
  const percent = fraction * 100;
  const rounded = Number(percent.toFixed(Math.abs(percent) < 10 ? 1 : 0));
  return `${rounded > 0 ? "+" : ""}${rounded === 0 ? 0 : rounded}%`;
}

/**
 * A difference of error rates (fractions) in signed points, two significant digits, without the
 * word (the caller says "points" once).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { signedPoints } from "./history_figures.ts";
 * assert.equal(signedPoints(0.0021), "+0.21");
 * assert.equal(signedPoints(-0.01), "-1");
 * ```
 */
export function signedPoints(fraction: number): string {
  if (!Number.isFinite(fraction)) return fraction > 0 ? "+∞" : fraction < 0 ? "-∞" : "–";
  const rounded = Number((fraction * 100).toPrecision(2));
  return `${rounded > 0 ? "+" : ""}${rounded === 0 ? 0 : rounded}`;
}

/**
 * Where a series was measured: its stage, and its label when it follows one.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { seriesPlace } from "./history_figures.ts";
 * assert.equal(seriesPlace({ stage: "steady", label: "GET /a" }), "stage steady [GET /a]");
 * ```
 */
export function seriesPlace(series: Pick<HistorySeries, "stage" | "label">): string {
  return `stage ${series.stage}${series.label === undefined ? "" : ` [${series.label}]`}`;
}

/**
 * A plan's runs in one line: how many, the first and the last with their dates and commits.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { runsSummary } from "./history_figures.ts";
 * assert.equal(runsSummary({ runs: [] }), "no stored run");
 * ```
 */
export function runsSummary(plan: Pick<PlanHistory, "runs">): string {
  const runs = plan.runs;
  if (runs.length === 0) return "no stored run";
  const at = (run: HistoryRunRef) =>
    `${runDateText(run.date)}${run.commit ? ` (commit ${shortCommit(run.commit)})` : ""}`;
  if (runs.length === 1) return `1 run, ${at(runs[0])}`;
  return `${runs.length} runs, from ${at(runs[0])} to ${at(runs[runs.length - 1])}`;
}
