/**
 * Merges what several recorders measured of the same plan (workers of one run, or shards run on
 * several machines) into one record: histograms merged exactly, counts added, intervals aligned
 * by their start. Never averages a percentile.
 *
 * @module
 */
import type { IntervalResult, JourneyResult, LabelResult, StageResult } from "../model/mod.ts";
import { mergeEncodedHistograms } from "../hdr/mod.ts";
import type { RecordedRun } from "./recorder.ts";
import { addCounts, emptyCounts } from "../model/mod.ts";
import { mergeChecks } from "./check_tally.ts";
import { applyTails, mergeTails } from "./slowest_tally.ts";

/**
 * Merges records of the same plan.
 */
export function mergeRecordedRuns(runs: readonly RecordedRun[]): RecordedRun {
  if (runs.length === 0) throw new RangeError("nothing to merge");
  if (runs.length === 1) return runs[0];
  const stages = runs[0].stages.map((stage, i): StageResult => {
    const parts = runs.map((r) => r.stages[i]);
    const journeys = stage.journeys && mergeJourneys(parts.map((p) => p.journeys ?? []));
    return {
      ...stage,
      ...mergeLatency(parts),
      labels: mergeLabels(parts.map((p) => p.labels)),
      ...(journeys ? { journeys } : {}),
    };
  });
  const byStart = new Map<number, IntervalResult[]>();
  for (const r of runs) {
    for (const interval of r.intervals) {
      const list = byStart.get(interval.startMs) ?? [];
      list.push(interval);
      byStart.set(interval.startMs, list);
    }
  }
  const intervals = [...byStart.entries()].sort(([a], [b]) => a - b).map(([, parts]) => ({
    ...parts[0],
    intendedPerSec: sum(parts, (p) => p.intendedPerSec),
    sentPerSec: sum(parts, (p) => p.sentPerSec),
    completedPerSec: sum(parts, (p) => p.completedPerSec),
    ...mergeLatency(parts),
    labels: mergeLabels(parts.map((p) => p.labels)),
  }));
  // The slowest and the exemplars merge exactly: the union's, chosen against the merged histograms.
  const tails = runs.every((r) => r.tails)
    ? stages.map((s, i) => s.labels.map((_, l) => mergeTails(runs.map((r) => r.tails![i][l]))))
    : undefined;
  if (tails) applyTails(stages, tails);
  return {
    stages,
    intervals,
    ...(tails ? { tails } : {}),
    sendLag: mergeEncodedHistograms(runs.map((r) => r.sendLag)),
    dispatchLag: mergeEncodedHistograms(runs.map((r) => r.dispatchLag)),
    queueWait: mergeEncodedHistograms(runs.map((r) => r.queueWait)),
    ...(runs.some((r) => r.stepLag)
      ? { stepLag: mergeEncodedHistograms(runs.flatMap((r) => r.stepLag ?? [])) }
      : {}),
    connectTime: mergeEncodedHistograms(runs.map((r) => r.connectTime)),
    engineStall: mergeEncodedHistograms(runs.map((r) => r.engineStall)),
    platformHiccup: mergeEncodedHistograms(runs.map((r) => r.platformHiccup)),
  };
}

/**
 * Counts added and histograms merged exactly, of groups of the same requests' kind (labels,
 * stages, workers' shares).
 */
export function mergeLatency(
  parts: readonly Pick<LabelResult, "counts" | "response" | "service" | "ttfb">[],
): Pick<LabelResult, "counts" | "response" | "service" | "ttfb"> {
  const counts = emptyCounts();
  for (const p of parts) addCounts(counts, p.counts);
  // Time to first byte where the parts have it (a result written before it has none).
  const ttfbs = parts.flatMap((p) => p.ttfb === undefined ? [] : [p.ttfb]);
  return {
    counts,
    response: mergeEncodedHistograms(parts.map((p) => p.response)),
    service: mergeEncodedHistograms(parts.map((p) => p.service)),
    ...(ttfbs.length > 0 ? { ttfb: mergeEncodedHistograms(ttfbs) } : {}),
  };
}

function mergeLabels(lists: readonly LabelResult[][]): LabelResult[] {
  return lists[0].map((label, i) => {
    const checks = mergeChecks(lists.map((list) => list[i].checks));
    return {
      label: label.label,
      ...mergeLatency(lists.map((list) => list[i])),
      ...(checks ? { checks } : {}),
    };
  });
}

/** Journeys of the same plan (workers or shards): counts added, journey times merged exactly. */
export function mergeJourneys(lists: readonly JourneyResult[][]): JourneyResult[] {
  return lists[0].map((j, i) => {
    const parts = lists.map((list) => list[i]);
    return {
      name: j.name,
      journey: mergeEncodedHistograms(parts.map((p) => p.journey)),
      thinkMs: sum(parts, (p) => p.thinkMs),
      started: sum(parts, (p) => p.started),
      completed: sum(parts, (p) => p.completed),
      failed: sum(parts, (p) => p.failed),
      steps: j.steps.map((s, k) => ({
        label: s.label,
        skipped: sum(parts, (p) => p.steps[k].skipped),
      })),
    };
  });
}

function sum<T>(items: readonly T[], f: (item: T) => number): number {
  return items.reduce((total, item) => total + f(item), 0);
}
