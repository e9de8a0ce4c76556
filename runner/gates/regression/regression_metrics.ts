/**
 * What the regression gate judges: its metrics and their default floors, how many stored runs
 * each needs before a change can fail it, and a group's run-level figures. Shared by the history
 * gate (regression.ts), the A/B comparison and the plan's up-front warnings. Pure.
 *
 * @module
 */
import { decodeHistogram } from "../../hdr/mod.ts";
import type { Histogram } from "../../hdr/mod.ts";
import { completedPerSec, errorRate } from "../../model/mod.ts";
import type { RequestCounts } from "../../model/mod.ts";
import type { RequestGroup } from "../gate_evidence.ts";

/** A metric the regression gate can judge. */
export type RegressionMetric =
  | "p50"
  | "p90"
  | "p99"
  | "p99.9"
  | "max"
  | "mean"
  | "error_rate"
  | "throughput";

/**
 * Metrics judged by default, and the relative change each must exceed to count. Not `max`: one
 * request decides it, so two runs of an unchanged build often differ by more than a floor (a plan
 * can still name it under `regression:`).
 */
export const DEFAULT_REGRESSION_FLOORS: Readonly<Partial<Record<RegressionMetric, number>>> = {
  p50: 0.10,
  p99: 0.10,
  "p99.9": 0.20,
  error_rate: 0.001, // absolute: 0.1 percentage point
  throughput: 0.05,
};

/**
 * Stored runs a metric's history needs before a change beyond its floor can fail it: with fewer,
 * the history's spread on this runner is unknown (no prediction bound), and the change is a
 * warning that says how many more runs are needed. The error rate, judged by its absolute floor,
 * needs one.
 */
export const MIN_BASELINE_RUNS = 3;

/**
 * Stored runs a tail metric (p90 and beyond, the max) needs: a tail's run-to-run spread is wider
 * and heavier than a median's, and the robust spread of fewer than five runs says little of it.
 */
export const MIN_TAIL_BASELINE_RUNS = 5;

/**
 * The runs the regression gate's window holds (`--update-baseline` keeps the newest this many
 * runs in full: the baseline store's `DEFAULT_BASELINE_RUNS`, which a test holds equal): a history
 * this long whose spread still bounds nothing will not grow into one.
 */
export const BASELINE_WINDOW_RUNS = 10;

/**
 * Whether a metric is a tail metric (a percentile from p90 on, or the max): the metrics a regression
 * of which alone is red only when it repeats (confirm_gates.ts).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isTailMetric } from "./regression_metrics.ts";
 * assert.equal(isTailMetric("p99"), true);
 * assert.equal(isTailMetric("p50"), false);
 * ```
 */
export function isTailMetric(metric: RegressionMetric): boolean {
  const q = percentileOf(metric);
  return metric === "max" || (q !== undefined && q >= 90);
}

/** Stored runs {@linkcode metric} needs before a change can fail it. */
export function baselineRunsNeeded(metric: RegressionMetric): number {
  return metric === "error_rate"
    ? 1
    : isTailMetric(metric)
    ? MIN_TAIL_BASELINE_RUNS
    : MIN_BASELINE_RUNS;
}

/**
 * One group's run-level figures; this run's carries the intervals the machine's contention could
 * have slowed (gate_evidence.ts).
 */
export interface Sample extends RequestGroup {
  response: Histogram;
  counts: RequestCounts;
  durationMs: number;
}

/**
 * A run-level figure of a sample: a percentile, max or mean (µs), the error rate (a fraction) or
 * the throughput (per second).
 */
export function metricValue(metric: RegressionMetric, s: Sample): number {
  const q = percentileOf(metric);
  if (q !== undefined) return s.response.getValueAtPercentile(q);
  if (metric === "max") return s.response.maxValue;
  if (metric === "mean") return s.response.mean;
  if (metric === "error_rate") return errorRate(s.counts);
  return completedPerSec(s.counts, s.durationMs);
}

/**
 * The percentile a regression metric names (`p99.9` → 99.9), or undefined for the others.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { percentileOf } from "./regression_metrics.ts";
 * assert.equal(percentileOf("p99.9"), 99.9);
 * ```
 */
export function percentileOf(metric: RegressionMetric): number | undefined {
  return /^p\d/.test(metric) ? Number(metric.slice(1)) : undefined;
}

/**
 * A stage's or label's figures as the regression gates read them: its decoded histogram, counts
 * and length.
 */
export function sampleOf(
  group: { response: { hdr: string }; counts: RequestCounts },
  durationMs: number,
): Sample {
  return { response: decodeHistogram(group.response.hdr), counts: group.counts, durationMs };
}
