/**
 * The one HdrHistogram configuration of tailgate, and the bucket arithmetic of HdrHistogram
 * layouts (the same index math as the Java and Rust reference implementations), which the codec
 * needs to place counts without going through a histogram object.
 *
 * @module
 */

/**
 * Parameters of an HdrHistogram bucket layout. Values are in the unit of the histogram.
 */
export interface HistogramLayout {
  /** Smallest value the layout tells apart from zero (at least 1). */
  readonly lowestDiscernibleValue: number;
  /** Largest value the layout is sized to record (at least twice the lowest). */
  readonly highestTrackableValue: number;
  /** Decimal digits every recorded value keeps (3: within 0.1%). */
  readonly significantValueDigits: number;
}

/** The configuration every tailgate histogram uses: the layout plus its value unit. */
export interface HistogramConfig extends HistogramLayout {
  /** Unit of the recorded values: microseconds. */
  readonly valueUnit: "us";
}

/**
 * Values in microseconds, 1 us lowest discernible value, 1 hour highest trackable value,
 * 3 significant digits (every recorded value is kept to within 0.1%).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { HISTOGRAM_CONFIG } from "./histogram_config.ts";
 * const oneHourUs = HISTOGRAM_CONFIG.highestTrackableValue;
 * assert.equal(oneHourUs, 3_600_000_000);
 * ```
 */
export const HISTOGRAM_CONFIG: HistogramConfig = Object.freeze({
  valueUnit: "us",
  lowestDiscernibleValue: 1,
  highestTrackableValue: 3_600_000_000,
  significantValueDigits: 3,
});

/**
 * Derived sizes of a layout: sub-bucket geometry and the counts array length.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { bucketGeometry, HISTOGRAM_CONFIG } from "./histogram_config.ts";
 * assert.equal(bucketGeometry(HISTOGRAM_CONFIG).subBucketCount, 2048);
 * ```
 */
export interface BucketGeometry {
  /** log2 of the width of the finest bucket (0 when lowestDiscernibleValue is 1). */
  readonly unitMagnitude: number;
  readonly subBucketHalfCountMagnitude: number;
  readonly subBucketCount: number;
  readonly subBucketHalfCount: number;
  /** Number of entries in the counts array; the last one covers highestTrackableValue. */
  readonly countsLength: number;
}

/**
 * Computes the bucket geometry of a layout exactly like HdrHistogram (Java, Rust, JS) does.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { bucketGeometry, HISTOGRAM_CONFIG } from "./histogram_config.ts";
 * assert.equal(bucketGeometry(HISTOGRAM_CONFIG).countsLength, 23552);
 * ```
 */
export function bucketGeometry(layout: HistogramLayout): BucketGeometry {
  const { lowestDiscernibleValue: lowest, highestTrackableValue: highest } = layout;
  const digits = layout.significantValueDigits;
  if (!Number.isSafeInteger(lowest) || lowest < 1) {
    throw new RangeError(`lowestDiscernibleValue must be an integer >= 1, got ${lowest}`);
  }
  if (!Number.isSafeInteger(highest) || highest < 2 * lowest) {
    throw new RangeError(`highestTrackableValue must be an integer >= 2 * lowest, got ${highest}`);
  }
  if (!Number.isInteger(digits) || digits < 0 || digits > 5) {
    throw new RangeError(`significantValueDigits must be 0..5, got ${digits}`);
  }
  const unitMagnitude = floorLog2(lowest);
  const subBucketCountMagnitude = Math.ceil(Math.log2(2 * 10 ** digits));
  const subBucketHalfCountMagnitude = Math.max(subBucketCountMagnitude, 1) - 1;
  const subBucketCount = 2 ** (subBucketHalfCountMagnitude + 1);
  let smallestUntrackable = subBucketCount * 2 ** unitMagnitude;
  let bucketCount = 1;
  while (smallestUntrackable <= highest) {
    smallestUntrackable *= 2;
    bucketCount++;
  }
  const subBucketHalfCount = subBucketCount / 2;
  const countsLength = (bucketCount + 1) * subBucketHalfCount;
  return {
    unitMagnitude,
    subBucketHalfCountMagnitude,
    subBucketCount,
    subBucketHalfCount,
    countsLength,
  };
}

/**
 * Index in the counts array of the bucket holding `value` (may be >= countsLength when the
 * value is beyond the layout).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { bucketGeometry, countsIndexOf, HISTOGRAM_CONFIG } from "./histogram_config.ts";
 * assert.equal(countsIndexOf(bucketGeometry(HISTOGRAM_CONFIG), 2049), 2048); // 2048 and 2049 share a bucket
 * ```
 */
export function countsIndexOf(geometry: BucketGeometry, value: number): number {
  const { unitMagnitude, subBucketHalfCountMagnitude, subBucketHalfCount } = geometry;
  const bucketIndex = value < 1
    ? 0
    : Math.max(floorLog2(value) - subBucketHalfCountMagnitude - unitMagnitude, 0);
  const subBucketIndex = Math.floor(value / 2 ** (bucketIndex + unitMagnitude));
  return (bucketIndex + 1) * subBucketHalfCount + subBucketIndex - subBucketHalfCount;
}

/**
 * The inclusive value range `[lowest, highest]` counted at a counts-array index.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { bucketGeometry, bucketRangeAt, HISTOGRAM_CONFIG } from "./histogram_config.ts";
 * assert.deepEqual(bucketRangeAt(bucketGeometry(HISTOGRAM_CONFIG), 2048), { lowest: 2048, highest: 2049 });
 * ```
 */
export function bucketRangeAt(
  geometry: BucketGeometry,
  index: number,
): { lowest: number; highest: number } {
  const { unitMagnitude, subBucketHalfCount } = geometry;
  let bucketIndex = Math.floor(index / subBucketHalfCount) - 1;
  let subBucketIndex = (index % subBucketHalfCount) + subBucketHalfCount;
  if (bucketIndex < 0) {
    subBucketIndex -= subBucketHalfCount;
    bucketIndex = 0;
  }
  const width = 2 ** (bucketIndex + unitMagnitude);
  const lowest = subBucketIndex * width;
  return { lowest, highest: lowest + width - 1 };
}

/**
 * The layout in which tailgate writes values multiplied by `unitScale` (e.g. 1000: microseconds to
 * the nanoseconds .hlog readers expect): lowest 1, highest x `unitScale`, one more significant
 * digit. The microsecond layout itself cannot be scaled (a layout's unit is a power of two), and
 * with the same 3 digits two adjacent microsecond buckets can share one nanosecond bucket (e.g.
 * 1536 us and 1537 us), so counts would merge. With one more digit, every scaled bucket is at least
 * 8x narrower than a scaled microsecond bucket. The encoder puts each microsecond bucket
 * [lo, hi] in the scaled bucket ending at the last bucket boundary below `(hi + 1) * unitScale`,
 * so every count, percentile (p > 0) and the max a reference reader reports lies within
 * [lo * unitScale, (hi + 1) * unitScale - 1] of the same microsecond bucket.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { HISTOGRAM_CONFIG, scaledLayout } from "./histogram_config.ts";
 * assert.equal(scaledLayout(HISTOGRAM_CONFIG, 1000).significantValueDigits, 4);
 * ```
 */
export function scaledLayout(layout: HistogramLayout, unitScale: number): HistogramLayout {
  if (layout.significantValueDigits >= 5) {
    throw new RangeError("a scaled layout needs one more significant digit than 5");
  }
  return {
    lowestDiscernibleValue: 1,
    highestTrackableValue: layout.highestTrackableValue * unitScale,
    significantValueDigits: layout.significantValueDigits + 1,
  };
}

/** floor(log2(value)) for a positive safe integer, immune to Math.log2 rounding near 2^k. */
function floorLog2(value: number): number {
  if (value < 2 ** 32) return 31 - Math.clz32(value);
  let exponent = Math.floor(Math.log2(value));
  if (2 ** exponent > value) exponent--;
  else if (2 ** (exponent + 1) <= value) exponent++;
  return exponent;
}
