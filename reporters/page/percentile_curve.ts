/**
 * The classic HdrHistogram percentile plot: latency against `1 / (1 − p)` on a log axis, so each
 * "nine" (90%, 99%, 99.9%, …) gets the same width and the tail is as visible as the median.
 *
 * @module
 */
import type { Histogram } from "../../runner/hdr/mod.ts";

/** One labelled tick of the percentile axis. */
export interface PercentileTick {
  /** Position: `1 / (1 − p)`. */
  x: number;
  label: string;
}

/** The percentile axis: its labelled ticks and where the maximum is drawn (the last tick). */
export interface PercentileAxis {
  /** Nines shown before `max`: 4 shows 90% … 99.99%. */
  nines: number;
  ticks: PercentileTick[];
  /** Position of the `max` tick. */
  maxX: number;
}

/** Points of a curve per factor of ten on the axis. */
const POINTS_PER_DECADE = 24;

/**
 * The axis for histograms of up to `largestCount` values: 0%, 50%, 90%, 99%, 99.9%, 99.99% and
 * `max`, with a nine more for each factor of ten beyond 10^5 values (up to 99.9999%), since only
 * then do the runs resolve it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { percentileAxis } from "./percentile_curve.ts";
 * assert.deepEqual(
 *   percentileAxis(20_000).ticks.map((t) => t.label),
 *   ["0%", "50%", "90%", "99%", "99.9%", "99.99%", "max"],
 * );
 * ```
 */
export function percentileAxis(largestCount: number): PercentileAxis {
  const resolved = largestCount > 0 ? Math.floor(Math.log10(largestCount)) : 0;
  const nines = Math.min(6, Math.max(4, resolved));
  const ticks: PercentileTick[] = [{ x: 1, label: "0%" }, { x: 2, label: "50%" }];
  for (let k = 1; k <= nines; k++) ticks.push({ x: 10 ** k, label: ninesLabel(k) });
  const maxX = 10 ** (nines + 1);
  ticks.push({ x: maxX, label: "max" });
  return { nines, ticks, maxX };
}

/**
 * Where a percentile (0 ≤ p < 100) lies on the axis: `1 / (1 − p/100)`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { percentileX } from "./percentile_curve.ts";
 * assert.equal(percentileX(99), 100);
 * ```
 */
export function percentileX(percentile: number): number {
  const x = 1 / (1 - percentile / 100);
  // Float noise off, so a percentile lands on its tick: 90 → 10, not 10.000000000000002, and
  // 99.999 → 100000, not 99999.9999993.
  const whole = Math.round(x);
  return Math.abs(x - whole) <= x * 1e-8 ? whole : x;
}

/**
 * The histogram's curve on the axis as `[x, latencyMs]` points: percentiles on an even grid of
 * the log axis (and at every labelled tick) up to just before `max`, then the maximum itself at
 * `maxX`. Empty when the
 * histogram is.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createHistogram } from "../../runner/hdr/mod.ts";
 * import { percentileAxis, percentileCurve } from "./percentile_curve.ts";
 * const h = createHistogram();
 * h.recordValueWithCount(1000, 99);
 * h.recordValue(50_000);
 * // The maximum, 50 ms, at the histogram's resolution (3 significant digits).
 * assert.deepEqual(percentileCurve(h, percentileAxis(h.totalCount)).at(-1), [100000, 50.015]);
 * ```
 */
export function percentileCurve(
  histogram: Histogram,
  axis: PercentileAxis,
): Array<[number, number]> {
  if (histogram.totalCount === 0) return [];
  const xs = new Set(axis.ticks.map((t) => t.x).filter((x) => x < axis.maxX));
  const steps = (axis.nines + 1) * POINTS_PER_DECADE;
  for (let i = 0; i < steps; i++) xs.add(round(10 ** (i / POINTS_PER_DECADE)));
  const points = [...xs].sort((a, b) => a - b).map((x): [number, number] => [
    x,
    histogram.getValueAtPercentile(100 * (1 - 1 / x)) / 1000,
  ]);
  points.push([axis.maxX, histogram.maxValue / 1000]);
  return points;
}

function ninesLabel(nines: number): string {
  return nines === 1 ? "90%" : `99${nines > 2 ? "." + "9".repeat(nines - 2) : ""}%`;
}

function round(x: number): number {
  return Number(x.toPrecision(6));
}
