/**
 * One plan's history judged: its series (history_series.ts), each with its minimum change
 * (min_change.ts), the changes the detector finds in each (detect_changes.ts), each with its
 * direction and in words, naming the commits on either side (change_text.ts). A change where the runner or the plan changed says so: it may be the machine,
 * not the code. Pure.
 *
 * @module
 */
import type {
  HistoryChange,
  HistoryRunRef,
  HistorySeries,
  HistorySettings,
  PlanHistory,
} from "../../model/mod.ts";
import type { Slo } from "../../plan/mod.ts";
import type { HistoryEntry } from "../../history/mod.ts";
import { fingerprintMismatch } from "../../history/mod.ts";
import { changeSteps } from "./detect_changes.ts";
import { drained, type Steps } from "../../model/mod.ts";
import { historySeries } from "./history_series.ts";
import { minChangeOf } from "./min_change.ts";
import { changeDirection, changeText } from "./change_text.ts";

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
function* seriesChanges(
  s: HistorySeries,
  seriesIndex: number,
  entries: readonly HistoryEntry[],
  runs: readonly HistoryRunRef[],
  settings: HistorySettings,
): Steps<HistoryChange[]> {
  const at: number[] = [];
  const values: number[] = [];
  s.values.forEach((v, i) => {
    if (v !== null) (at.push(i), values.push(v));
  });
  if (values.length < MIN_HISTORY_RUNS || s.minChange === undefined) return [];
  const found = yield* changeSteps(values, {
    maxPValue: settings.maxPValue,
    windowRuns: settings.windowRuns,
    minMagnitude: s.minChange.value,
  });
  return found.map((c) => {
    const mapped = { ...c, index: at[c.index], endIndex: at[c.endIndex] };
    // The last run before it with a value: a run between them (contended, without the stage)
    // says nothing, so the change may lie at it too.
    const previousIndex = c.index > 0 ? at[c.index - 1] : undefined;
    const previous = previousIndex === undefined ? undefined : runs[previousIndex];
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
      text: changeText(s, mapped, runs, previousIndex),
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
  return drained(analysisSteps(input, settings));
}

/**
 * {@linkcode analyzeHistory} in steps (those of each series' change detection), so a caller can
 * stop between them; the same history at its end.
 */
export function* analysisSteps(input: HistoryInput, settings: HistorySettings): Steps<PlanHistory> {
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
  const changes: HistoryChange[] = [];
  for (const [i, s] of series.entries()) {
    changes.push(...yield* seriesChanges(s, i, input.entries, runs, settings));
  }
  changes.sort((a, b) => a.index - b.index || a.series - b.series);
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
