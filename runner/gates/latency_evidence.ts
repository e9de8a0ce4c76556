/**
 * The evidence a latency gate (a percentile, the max or the mean) weighs: its measured value, its
 * confidence interval with failed requests counted as beyond every bound, and how much of it the
 * generator may have added. Pure.
 *
 * @module
 */
import type { SloMetric } from "../plan/mod.ts";
import type { Histogram } from "../hdr/mod.ts";
import type { ToolHealth } from "../model/mod.ts";
import { censoredPercentile } from "./stats/mod.ts";
import { generatorAllowance, generatorAllowanceOfMean } from "./generator_allowance.ts";
import { type ContendedInterval, withoutContended } from "./contention_tail.ts";

/** A latency figure and its interval (us); Infinity where failures decide it. */
export interface LatencyEvidence {
  measuredUs: number;
  lowUs: number;
  highUs: number;
  /** What the generator may have added at this figure (us). */
  allowanceUs: number;
  /** Requests judged: successful ones plus failures. */
  n: number;
  failures: number;
  /**
   * With the slowest requests the machine's contention could have delayed taken off
   * (contention_tail.ts): the interval's lower end then, and how many were taken off. Absent when
   * none could have been.
   */
  contention?: { lowUs: number; highUs: number; takenOff: number };
}

/**
 * Evidence for a latency metric over `h` (successful responses) and `failures` failed requests;
 * when `contended` names the intervals in which the service waited for a CPU and the bound the
 * figure is judged against, also its interval with the requests beyond the bound that wait could
 * explain taken off (contention_tail.ts).
 */
export function latencyEvidence(
  metric: Exclude<SloMetric, { kind: "error_rate" | "throughput" }>,
  h: Histogram,
  failures: number,
  health: Pick<ToolHealth, "sendLag" | "dispatchLag" | "engineStall" | "platformHiccup">,
  alpha = 0.05,
  contended: { intervals: readonly ContendedInterval[]; boundUs: number } = {
    intervals: [],
    boundUs: Infinity,
  },
): LatencyEvidence {
  const e = ownEvidence(metric, h, failures, health, alpha);
  // What a fail must exceed: the bound, plus what the generator may have added.
  const thresholdUs = contended.boundUs + e.allowanceUs;
  const taken = contended.intervals.length > 0 && Number.isFinite(thresholdUs)
    ? withoutContended(h, contended.intervals, thresholdUs)
    : undefined;
  if (taken === undefined) return e;
  const beside = ownEvidence(metric, taken.adjusted, failures, health, alpha);
  return {
    ...e,
    contention: {
      lowUs: Math.min(beside.lowUs, e.lowUs),
      highUs: Math.min(beside.highUs, e.highUs),
      takenOff: taken.takenOff,
    },
  };
}

function ownEvidence(
  metric: Exclude<SloMetric, { kind: "error_rate" | "throughput" }>,
  h: Histogram,
  failures: number,
  health: Pick<ToolHealth, "sendLag" | "dispatchLag" | "engineStall" | "platformHiccup">,
  alpha = 0.05,
): LatencyEvidence {
  const n = h.totalCount + failures;
  if (metric.kind === "percentile") {
    const p = censoredPercentile(h, failures, metric.percentile, alpha);
    return {
      measuredUs: p.estimateUs,
      lowUs: p.lowUs,
      highUs: p.highUs,
      allowanceUs: generatorAllowance(health, metric.percentile).addedUs,
      n,
      failures,
    };
  }
  if (failures > 0) {
    // A failed request has no latency to average or to be the largest of: it is beyond any bound.
    return { measuredUs: Infinity, lowUs: Infinity, highUs: Infinity, allowanceUs: 0, n, failures };
  }
  if (metric.kind === "max") {
    // The observed max is exact up to its bucket: no sampling interval, the bucket's width only.
    const max = h.maxValue;
    let lowest = 0;
    for (const b of h.recordedValues()) lowest = b.lowestUs;
    return {
      measuredUs: max,
      lowUs: lowest,
      highUs: max,
      allowanceUs: generatorAllowance(health, 100).addedUs,
      n,
      failures,
    };
  }
  const mean = h.mean;
  const halfWidth = 1.96 * standardDeviation(h, mean) / Math.sqrt(Math.max(1, n));
  return {
    measuredUs: mean,
    lowUs: Math.max(0, mean - halfWidth),
    highUs: n < 2 ? Infinity : mean + halfWidth,
    allowanceUs: generatorAllowanceOfMean(health).addedUs,
    n,
    failures,
  };
}

/**
 * How many of the judged requests lie beyond `boundUs` (failures included): the count the
 * remedy's run length is estimated from.
 */
export function countBeyond(h: Histogram, failures: number, boundUs: number): number {
  let beyond = failures;
  for (const b of h.recordedValues()) if (b.valueUs >= boundUs) beyond += b.count;
  return beyond;
}

function standardDeviation(h: Histogram, mean: number): number {
  let sum = 0;
  let n = 0;
  for (const b of h.recordedValues()) {
    const mid = (b.lowestUs + b.valueUs) / 2;
    sum += b.count * (mid - mean) ** 2;
    n += b.count;
  }
  return n > 1 ? Math.sqrt(sum / (n - 1)) : 0;
}
