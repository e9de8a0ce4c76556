/**
 * What a change says. Its direction, only as far as its interval shows: for the worse or the
 * better when the whole 95% interval of its figure (an error rate's in points, any other's
 * relative) lies on one side of no change; `unclear` when the interval includes no change (the
 * split passed the shuffle test, the runs' order or ranks moved, but its size is not known to be
 * other than none: it is reported as such and fails nothing). And its sentence, commits by their
 * first 7 characters: the series, which way it went (rose, fell, crept; "changed by" when
 * unclear), the change with its interval, the levels on either side and the commits it lies near
 * or spans. Pure.
 *
 * @module
 */
import {
  type ChangeFigure,
  changeFigure,
  type HistoryChangeDirection,
  type HistoryMetric,
  type HistoryRunRef,
  type HistorySeries,
  type HistoryUnit,
  type SeriesChange,
  shortCommit,
} from "../../model/mod.ts";
import { formatDurationMs, formatRatePerSec } from "../../plan/mod.ts";
import { higherIsWorse } from "./history_series.ts";

/**
 * The direction of `change` in a series of `metric` (in `unit`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { changeDirection } from "./change_text.ts";
 * const change = (low: number, high: number) => ({
 *   relativeChange: (low + high) / 2,
 *   interval95: [low, high] as [number, number],
 *   absoluteChange: 0,
 *   absoluteInterval95: [0, 0] as [number, number],
 * });
 * assert.equal(changeDirection("p99", "us", change(0.02, 0.08)), "worse");
 * assert.equal(changeDirection("throughput", "per_sec", change(0.02, 0.08)), "better");
 * assert.equal(changeDirection("p90", "us", change(-0.038, 0.042)), "unclear");
 * ```
 */
export function changeDirection(
  metric: HistoryMetric,
  unit: HistoryUnit,
  change: Pick<
    SeriesChange,
    "relativeChange" | "interval95" | "absoluteChange" | "absoluteInterval95"
  >,
): HistoryChangeDirection {
  const [low, high] = changeFigure(unit, change).interval95;
  const up = low > 0;
  if (!up && !(high < 0)) return "unclear";
  return up === higherIsWorse(metric) ? "worse" : "better";
}

/** A value in its series' unit, as the reports write it. */
export function formatSeriesValue(series: Pick<HistorySeries, "unit">, value: number): string {
  if (series.unit === "us") return formatDurationMs(value / 1000);
  if (series.unit === "per_sec") return formatRatePerSec(value);
  return `${+(value * 100).toPrecision(3)}%`;
}

function percent(fraction: number): string {
  return `${+(Math.abs(fraction) * 100).toFixed(1)}%`;
}

/** A difference of error rates in points, without the word: 0.0021 is "0.21". */
function pointsNumber(fraction: number): string {
  return `${+(Math.abs(fraction) * 100).toPrecision(2)}`;
}

function signed(text: (fraction: number) => string, fraction: number): string {
  return `${fraction < 0 ? "-" : fraction > 0 ? "+" : ""}${text(fraction)}`;
}

/**
 * "12% (95% interval +8.1% to +16%)", in points "2 points (95% interval +1.9 to +2.1 points)";
 * `unclear`: signed, the interval said to include no change.
 */
function sizeText(figure: ChangeFigure, unclear: boolean): string {
  const [low, high] = figure.interval95;
  const points = figure.measure === "points";
  const number = points ? pointsNumber : percent;
  const amount = unclear ? signed(number, figure.value) : number(figure.value);
  const interval = points
    ? `${signed(pointsNumber, low)} to ${signed(pointsNumber, high)} points`
    : `${signed(percent, low)} to ${signed(percent, high)}`;
  const includes = unclear ? ", which includes no change" : "";
  return `${amount}${points ? " points" : ""} (95% interval ${interval}${includes})`;
}

/** The series' name in a sentence: "p99 of stage steady [checkout]". */
export function seriesName(s: Pick<HistorySeries, "metric" | "stage" | "label">): string {
  const metric = s.metric === "error_rate" ? "error rate" : s.metric;
  return `${metric} of stage ${s.stage}${s.label === undefined ? "" : ` [${s.label}]`}`;
}

/** A run as a sentence names it: its commit, else its date. */
function runName(run: HistoryRunRef | undefined, index: number): string {
  if (run === undefined) return `run ${index + 1}`;
  return run.commit ? `commit ${shortCommit(run.commit)}` : `run ${index + 1} (${run.date})`;
}

/**
 * The sentence of change `c` of series `s` among `runs` (its indexes are theirs).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { changeText } from "./change_text.ts";
 * const series = { stage: "steady", stageIndex: 0, metric: "p99" as const, unit: "us" as const, values: [] };
 * const change = {
 *   kind: "step" as const, index: 1, endIndex: 1, meanBefore: 1000, meanAfter: 1120,
 *   runsBefore: 1, runsAfter: 1, relativeChange: 0.12, interval95: [0.081, 0.16] as [number, number],
 *   absoluteChange: 120, absoluteInterval95: [81, 160] as [number, number], pValue: 0.0004, pAtFloor: false,
 * };
 * const runs = [{ date: "d0", runner: "r", plan: "p" }, { date: "d1", runner: "r", plan: "p" }];
 * assert.equal(changeText(series, change, runs),
 *   "p99 of stage steady rose 12% (95% interval +8.1% to +16%), from 1ms to 1.12ms near run 2 (d1), " +
 *   "between run 1 (d0) and run 2 (d1)");
 * ```
 */
export function changeText(
  s: HistorySeries,
  c: SeriesChange,
  runs: readonly HistoryRunRef[],
  previousIndex: number = c.index - 1,
): string {
  const figure = changeFigure(s.unit, c);
  const unclear = changeDirection(s.metric, s.unit, c) === "unclear";
  const way = unclear
    ? "changed by"
    : figure.value >= 0
    ? (c.kind === "trend" ? "crept up" : "rose")
    : c.kind === "trend"
    ? "crept down"
    : "fell";
  const size = `${sizeText(figure, unclear)}, from ${formatSeriesValue(s, c.meanBefore)} to ${
    formatSeriesValue(s, c.meanAfter)
  }`;
  if (c.kind === "trend") {
    return `${seriesName(s)} ${way} ${size} over ${c.endIndex - c.index + 1} runs, from ` +
      `${runName(runs[c.index], c.index)} to ${runName(runs[c.endIndex], c.endIndex)}`;
  }
  const near = runName(runs[c.index], c.index);
  const before = runs[previousIndex];
  const between = before === undefined
    ? ""
    : `, between ${runName(before, previousIndex).replace(/^commit /, "")} and ${
      near.replace(/^commit /, "")
    }`;
  return `${seriesName(s)} ${way} ${size} near ${near}${between}`;
}
