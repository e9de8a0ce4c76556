/**
 * The series a history follows: for every measured stage (and each label, when the stage has
 * several) the p50, p90, p99, p99.9, throughput and error rate of each stored run, one value per
 * run (null where a run lacks the stage or label, and in the percentiles of a run stored as
 * contended: its tail is the machine's), with the plan's tightest SLO bound on it.
 * Pure: it reads the stored summaries, never a histogram.
 *
 * @module
 */
import type { RequestCounts } from "../../model/mod.ts";
import { completedPerSec, errorRate } from "../../model/mod.ts";
import { isSufficient } from "../stats/mod.ts";
import {
  HISTORY_METRICS,
  type HistoryMetric,
  type HistorySeries,
  type HistoryUnit,
} from "../../model/mod.ts";
import type { Slo, StageBinding } from "../../plan/mod.ts";
import { stagesForSlo } from "../../plan/mod.ts";
import type { HistoryEntry, HistoryStage } from "../../history/mod.ts";

const PERCENTILE_KEYS: Partial<Record<HistoryMetric, string>> = {
  p50: "50",
  p90: "90",
  p99: "99",
  "p99.9": "99.9",
};

/**
 * The unit a metric's values are in.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { unitOf } from "./history_series.ts";
 * assert.equal(unitOf("p99"), "us");
 * assert.equal(unitOf("error_rate"), "fraction");
 * ```
 */
export function unitOf(metric: HistoryMetric): HistoryUnit {
  if (metric === "throughput") return "per_sec";
  if (metric === "error_rate") return "fraction";
  return "us";
}

/**
 * Whether a rise of `metric` is for the worse: latency and errors up are, throughput up is not.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { higherIsWorse } from "./history_series.ts";
 * assert.equal(higherIsWorse("p99.9"), true);
 * assert.equal(higherIsWorse("throughput"), false);
 * ```
 */
export function higherIsWorse(metric: HistoryMetric): boolean {
  return metric !== "throughput";
}

/**
 * A group's value of `metric`: null when it completed nothing (no latency, no rate of errors), and
 * for a percentile its requests cannot support (fewer than 10 beyond it, as the gates require): a
 * 1000-request run's p99.9 is its maximum, not a p99.9.
 */
function valueOf(
  metric: HistoryMetric,
  counts: RequestCounts,
  percentilesUs: Record<string, number>,
  durationMs: number,
): number | null {
  if (metric === "throughput") {
    return durationMs > 0 ? completedPerSec(counts, durationMs) : null;
  }
  if (counts.completed === 0) return null;
  if (metric === "error_rate") return errorRate(counts);
  const key = PERCENTILE_KEYS[metric]!;
  if (!isSufficient(counts.completed, Number(key))) return null;
  const value = percentilesUs[key];
  return Number.isFinite(value) ? value : null;
}

/** Where a series is: a stage by position and name, and a label or the stage as a whole. */
interface Place {
  stageIndex: number;
  stage: string;
  label?: string;
}

/** The measured stages and labels of the runs, in plan order; labels only where several. */
function placesOf(entries: readonly HistoryEntry[]): Place[] {
  const places = new Map<string, Place>();
  const stages = entries.flatMap((e) => e.stages.filter((s) => !s.warmup))
    .sort((a, b) => a.index - b.index);
  for (const s of stages) {
    const key = `${s.index}\u0000${s.name}`;
    if (!places.has(key)) places.set(key, { stageIndex: s.index, stage: s.name });
  }
  for (const s of stages) {
    if (s.labels.length < 2) continue;
    for (const l of s.labels) {
      const key = `${s.index}\u0000${s.name}\u0000${l.label}`;
      if (!places.has(key)) places.set(key, { stageIndex: s.index, stage: s.name, label: l.label });
    }
  }
  // By stage, the stage as a whole before its labels; otherwise as first seen (a stable sort).
  return [...places.values()].sort((a, b) =>
    a.stageIndex - b.stageIndex || Number(a.label !== undefined) - Number(b.label !== undefined)
  );
}

function stageOf(entry: HistoryEntry, place: Place): HistoryStage | undefined {
  return entry.stages.find((s) => s.index === place.stageIndex && s.name === place.stage);
}

/** The SLO's bound in a series' unit when it binds that stage, label and metric. */
function boundOn(
  slo: Slo,
  place: Place,
  metric: HistoryMetric,
  stage: HistoryStage,
): number | undefined {
  if ((slo.label ?? undefined) !== place.label || slo.windowMs !== undefined) return undefined;
  const binding: StageBinding = stage.fromPerSec === stage.toPerSec
    ? { kind: "constant", ratePerSec: stage.fromPerSec, warmup: stage.warmup }
    : { kind: "ramp", warmup: stage.warmup };
  if (stagesForSlo(slo, [binding]).length === 0) return undefined;
  const m = slo.metric;
  const upper = slo.operator === "<" || slo.operator === "<=";
  if (m.kind === "percentile" && PERCENTILE_KEYS[metric] === String(m.percentile) && upper) {
    return slo.bound;
  }
  if (m.kind === "error_rate" && metric === "error_rate" && upper) return slo.bound;
  if (m.kind === "throughput" && metric === "throughput" && !upper) return slo.bound;
  return undefined;
}

/** The tightest of the plan's SLO bounds on a series, with its text. */
function tightestBound(
  slos: readonly Slo[],
  place: Place,
  metric: HistoryMetric,
  stage: HistoryStage | undefined,
): { value: number; slo: string } | undefined {
  if (stage === undefined) return undefined;
  let best: { value: number; slo: string } | undefined;
  for (const slo of slos) {
    const value = boundOn(slo, place, metric, stage);
    if (value === undefined) continue;
    const tighter = best === undefined ||
      (higherIsWorse(metric) ? value < best.value : value > best.value);
    if (tighter) best = { value, slo: slo.text };
  }
  return best;
}

/**
 * Every series of the runs `entries` (oldest first), with the bounds of `slos` drawn on them.
 */
export function historySeries(
  entries: readonly HistoryEntry[],
  slos: readonly Slo[] = [],
): HistorySeries[] {
  const series: HistorySeries[] = [];
  for (const place of placesOf(entries)) {
    const stages = entries.map((e) => stageOf(e, place));
    const newest = stages.findLast((s) => s !== undefined);
    for (const metric of HISTORY_METRICS) {
      const values = stages.map((s, i) => {
        if (s === undefined) return null;
        // A run stored as contended measured the machine as much as the code: a gap in latency.
        if (PERCENTILE_KEYS[metric] && entries[i].notBaseline?.includes("contended")) return null;
        if (place.label === undefined) {
          return valueOf(metric, s.counts, s.response.percentilesUs, s.durationMs);
        }
        const l = s.labels.find((x) => x.label === place.label);
        return l ? valueOf(metric, l.counts, l.responsePercentilesUs, s.durationMs) : null;
      });
      const bound = tightestBound(slos, place, metric, newest);
      series.push({
        stage: place.stage,
        stageIndex: place.stageIndex,
        ...(place.label === undefined ? {} : { label: place.label }),
        metric,
        unit: unitOf(metric),
        values,
        ...(bound ? { bound } : {}),
      });
    }
  }
  return series;
}
