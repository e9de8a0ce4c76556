/**
 * Distribution-free percentile statistics read off a histogram: the value at a rank and the 95%
 * confidence interval of a percentile from order statistics (the normal approximation to the
 * binomial count of values below the true percentile).
 *
 * @module
 */
import type { Histogram } from "../../hdr/mod.ts";

/** A confidence interval of a percentile, as histogram values (bucket upper bounds). */
export interface PercentileInterval {
  readonly lowUs: number;
  readonly highUs: number;
}

/**
 * The value of rank `rank` (1 = smallest) among the histogram's values: the highest equivalent
 * value of the bucket where the cumulative count first reaches `rank`, as
 * `getValueAtPercentile` reports it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createHistogram } from "../../hdr/mod.ts";
 * import { valueAtRank } from "./order_statistics.ts";
 * const h = createHistogram();
 * h.recordValueWithCount(100, 3);
 * h.recordValue(200);
 * assert.equal(valueAtRank(h, 3), 100);
 * assert.equal(valueAtRank(h, 4), 200);
 * ```
 */
export function valueAtRank(h: Histogram, rank: number): number {
  const n = h.totalCount;
  if (!Number.isInteger(rank) || rank < 1 || rank > n) {
    throw new RangeError(`rank must be an integer in [1, ${n}], got ${rank}`);
  }
  let cumulative = 0;
  for (const { valueUs, count } of h.recordedValues()) {
    cumulative += count;
    if (cumulative >= rank) return valueUs;
  }
  // Unreachable while totalCount equals the sum of the recorded counts.
  throw new RangeError(`rank ${rank} lies beyond the recorded counts`);
}

/**
 * The confidence interval (95% by default) of percentile `percentile` (in percent, in (0, 100]):
 * the values at ranks n·q ∓ z·√(n·q·(1−q)), the lower rank rounded down and the upper rounded up,
 * both clamped to [1, n]. Needs no assumption about the latency distribution. Both ends are 0
 * for an empty histogram, as `getValueAtPercentile` is.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createHistogram } from "../../hdr/mod.ts";
 * import { percentileConfidenceInterval } from "./order_statistics.ts";
 * const h = createHistogram();
 * for (let v = 1; v <= 100; v++) h.recordValue(v);
 * assert.deepEqual(percentileConfidenceInterval(h, 50), { lowUs: 40, highUs: 60 });
 * ```
 */
export function percentileConfidenceInterval(
  h: Histogram,
  percentile: number,
  z = 1.96,
): PercentileInterval {
  if (!(percentile > 0 && percentile <= 100)) {
    throw new RangeError(`percentile must be in (0, 100], got ${percentile}`);
  }
  if (!(z >= 0 && Number.isFinite(z))) {
    throw new RangeError(`z must be a finite number >= 0, got ${z}`);
  }
  const n = h.totalCount;
  if (n === 0) return { lowUs: 0, highUs: 0 };
  const q = percentile / 100;
  // Round away float noise (1000 × 0.999 is 999.0000000000001) before floor and ceil.
  const centre = n * q;
  const halfWidth = z * Math.sqrt(centre * (1 - q));
  const lowRank = clamp(Math.floor(denoise(centre - halfWidth)), 1, n);
  const highRank = clamp(Math.ceil(denoise(centre + halfWidth)), 1, n);
  return { lowUs: valueAtRank(h, lowRank), highUs: valueAtRank(h, highRank) };
}

function denoise(x: number): number {
  return Number(x.toPrecision(12));
}

function clamp(x: number, low: number, high: number): number {
  return Math.min(high, Math.max(low, x));
}
