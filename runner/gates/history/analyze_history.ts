/**
 * One plan's history judged: its series (history_series.ts), each with its minimum change
 * (min_change.ts), the changes the detector finds in each (detect_changes.ts), and each change in
 * words, naming the commits on either side. A change
 * where the runner or the plan changed says so: it may be the machine, not the code. Pure.
 *
 * @module
 */
import {
  type ChangeFigure,
  changeFigure,
  type HistoryChange,
  type HistoryRunRef,
  type HistorySeries,
  type HistorySettings,
  type PlanHistory,
  shortCommit,
} from "../../model/history_result.ts";
import type { Slo } from "../../plan/types.ts";
import { formatDurationMs, formatRatePerSec } from "../../plan/units.ts";
import type { HistoryEntry } from "../baseline/mod.ts";
import { fingerprintMismatch } from "../baseline/mod.ts";
import { detectChanges } from "./detect_changes.ts";
import type { SeriesChange } from "./series_change.ts";
import { historySeries } from "./history_series.ts";
import { changeDirection } from "./change_direction.ts";
import { minChangeOf } from "./min_change.ts";

/**
 * Runs a series needs before changes are looked for: fewer cannot show a level on both sides.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { MIN_HISTORY_RUNS } from "./analyze_history.ts";
 * assert.equal(MIN_HISTORY_RUNS, 6);
 * ```
 */
export const MIN_HISTORY_RUNS = 6;

/** What {@linkcode analyzeHistory} reads. */
export interface HistoryInput {
  /** The history's name. */
  plan: string;
  planFile: string;
  /** The history file read. */
  source: string;
  /** Its long history, oldest first. */
  entries: readonly HistoryEntry[];
  /** The plan's SLOs, whose bounds are drawn on the series. */
  slos: readonly Slo[];
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

function changeText(
  s: HistorySeries,
  c: SeriesChange,
  runs: readonly HistoryRunRef[],
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
  const before = runs[c.index - 1];
  const between = before === undefined
    ? ""
    : `, between ${runName(before, c.index - 1).replace(/^commit /, "")} and ${
      near.replace(/^commit /, "")
    }`;
  return `${seriesName(s)} ${way} ${size} near ${near}${between}`;
}

/** What else changed between run `index` − 1 and `index`. */
function coinciding(entries: readonly HistoryEntry[], index: number): string[] {
  const before = entries[index - 1];
  const after = entries[index];
  if (before === undefined || after === undefined) return [];
  const out: string[] = [];
  if (before.runner !== after.runner) {
    const how = fingerprintMismatch(before.environment, after.environment);
    out.push(`the runner changed${how.length ? ` (${how.join("; ")})` : ""}`);
  }
  // A run migrated from a version-1 file kept no plan: its fingerprint digests the stages alone.
  const migrated = before.migrated === true || after.migrated === true;
  if (before.plan !== after.plan && !migrated) out.push("the plan's requests or stages changed");
  return out;
}

/**
 * The changes of one series: the detector's, on the runs that have a value, mapped back to the
 * runs' indexes.
 */
function seriesChanges(
  s: HistorySeries,
  seriesIndex: number,
  entries: readonly HistoryEntry[],
  runs: readonly HistoryRunRef[],
  settings: HistorySettings,
): HistoryChange[] {
  const at: number[] = [];
  const values: number[] = [];
  s.values.forEach((v, i) => {
    if (v !== null) (at.push(i), values.push(v));
  });
  if (values.length < MIN_HISTORY_RUNS || s.minChange === undefined) return [];
  const found = detectChanges(values, {
    maxPValue: settings.maxPValue,
    windowRuns: settings.windowRuns,
    minMagnitude: s.minChange.value,
  });
  return found.map((c) => {
    const mapped = { ...c, index: at[c.index], endIndex: at[c.endIndex] };
    const previous = runs[mapped.index - 1];
    const commit = runs[mapped.index]?.commit;
    const direction = changeDirection(s.metric, s.unit, c);
    return {
      series: seriesIndex,
      kind: c.kind,
      direction,
      worse: direction === "worse",
      index: mapped.index,
      endIndex: mapped.endIndex,
      ...(commit ? { commit } : {}),
      ...(previous?.commit ? { previousCommit: previous.commit } : {}),
      meanBefore: c.meanBefore,
      meanAfter: c.meanAfter,
      runsBefore: c.runsBefore,
      runsAfter: c.runsAfter,
      relativeChange: c.relativeChange,
      interval95: c.interval95,
      absoluteChange: c.absoluteChange,
      absoluteInterval95: c.absoluteInterval95,
      pValue: c.pValue,
      pAtFloor: c.pAtFloor,
      ...(c.shuffles === undefined ? {} : { shuffles: c.shuffles }),
      recent: settings.failRecent > 0 && mapped.endIndex >= runs.length - settings.failRecent,
      coincides: c.kind === "step" ? coinciding(entries, mapped.index) : [],
      text: changeText(s, mapped, runs),
    };
  });
}

/** The notes of a history: too short to judge, runners and plans that changed along it. */
function historyNotes(entries: readonly HistoryEntry[]): string[] {
  const notes: string[] = [];
  if (entries.length < MIN_HISTORY_RUNS) {
    notes.push(
      `only ${entries.length} run${entries.length === 1 ? "" : "s"} stored: changes are looked ` +
        `for from ${MIN_HISTORY_RUNS} on`,
    );
  }
  for (let i = 1; i < entries.length; i++) {
    const why = coinciding(entries, i);
    if (why.length) notes.push(`at run ${i + 1} (${entries[i].date}): ${why.join("; ")}`);
  }
  return notes;
}

/**
 * Judges one plan's history with `settings`.
 */
export function analyzeHistory(input: HistoryInput, settings: HistorySettings): PlanHistory {
  const runs: HistoryRunRef[] = input.entries.map((e) => ({
    date: e.date,
    ...(e.commit ? { commit: e.commit } : {}),
    ...(e.branch ? { branch: e.branch } : {}),
    runner: e.runner,
    plan: e.plan,
  }));
  const series = historySeries(input.entries, input.slos).map((s) => {
    const values = s.values.filter((v) => v !== null);
    if (values.length < MIN_HISTORY_RUNS) return s;
    return { ...s, minChange: minChangeOf(values, settings.minMagnitude) };
  });
  const changes = series
    .flatMap((s, i) => seriesChanges(s, i, input.entries, runs, settings))
    .sort((a, b) => a.index - b.index || a.series - b.series);
  return {
    plan: input.plan,
    planFile: input.planFile,
    source: input.source,
    runs,
    series,
    changes,
    notes: historyNotes(input.entries),
  };
}
