/**
 * tailgate's HdrHistogram buckets as an OpenTelemetry exponential histogram (pure arithmetic).
 *
 * An exponential histogram of scale `s` has base `b = 2^(2^-s)`; its bucket of index `i` holds
 * the values in `(b^i, b^(i+1)]`. tailgate sends scale {@linkcode OTLP_SCALE} = 8 (256 buckets
 * per doubling, b = 1.002711) unless asked for a coarser one: the finest scale Prometheus keeps
 * for a native histogram, so a receiver that converts one keeps it as is. Each HDR bucket goes whole into the exponential
 * bucket that holds its highest equivalent value (the value tailgate reports for a percentile),
 * so the counts below any exponential boundary are exact, and tailgate's own pXX lies in the
 * exponential bucket a reader finds for pXX: that bucket's upper bound is at least pXX and less
 * than pXX × 1.002711 ({@linkcode OTLP_RELATIVE_ERROR}, 0.271%); its geometric midpoint is
 * within ±0.136% (√b − 1). A bucket of 0 µs counts as the zero bucket.
 *
 * Size: the buckets are dense from the lowest to the highest one recorded, one varint each (a
 * byte while a count is under 128), so at scale 8 a point spanning 1 ms to 10 s holds 3,402
 * bucket counts, and the widest span tailgate can record (1 µs to 1 hour) 8,128. Each step down
 * in scale halves that and doubles the error.
 *
 * @module
 */

/** The scale of every exponential histogram tailgate sends: 256 buckets per doubling. */
export const OTLP_SCALE = 8;

/**
 * The largest relative distance from a value to the upper bound of its bucket at
 * {@linkcode OTLP_SCALE}: `2^(2^-8) - 1` ≈ 0.002711.
 */
export const OTLP_RELATIVE_ERROR: number = 2 ** (2 ** -OTLP_SCALE) - 1;

/** One HDR bucket as the neutral batch carries it (µs). */
export interface HdrBucket {
  lowestUs: number;
  highestUs: number;
  count: number;
}

/** The positive buckets and zero count of one exponential histogram data point. */
export interface ExponentialBuckets {
  scale: number;
  /** Values of 0 (HDR's bucket of 0 µs). */
  zeroCount: number;
  /** Index of the first bucket of `counts` (0 when there is none). */
  offset: number;
  /** Counts of the buckets `offset`, `offset + 1`, …, dense. */
  counts: number[];
}

/**
 * Index of the exponential bucket at `scale` (> 0) holding `value` (> 0): the `i` with
 * `b^i < value <= b^(i+1)`. Exact for powers of two; elsewhere through `log2`, which may be one
 * off for a value within about 1e-15 (relative) of a boundary.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { exponentialIndex } from "./otlp_buckets.ts";
 * assert.equal(exponentialIndex(1, 8), -1); // (b^-1, 1]
 * assert.equal(exponentialIndex(1.001, 8), 0); // (1, b]
 * assert.equal(exponentialIndex(0.5, 8), -257); // a power of two closes its bucket
 * ```
 */
export function exponentialIndex(value: number, scale: number): number {
  if (!(value > 0) || !Number.isFinite(value)) {
    throw new RangeError(`exponential bucket of a value that is not finite and > 0: ${value}`);
  }
  const exponent = powerOfTwoExponent(value);
  if (exponent !== undefined) return exponent * 2 ** scale - 1;
  return Math.ceil(Math.log2(value) * 2 ** scale) - 1;
}

/**
 * The upper bound of bucket `index` at `scale`: `2^((index + 1) / 2^scale)`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { exponentialUpperBound } from "./otlp_buckets.ts";
 * assert.equal(exponentialUpperBound(-257, 8), 0.5);
 * ```
 */
export function exponentialUpperBound(index: number, scale: number): number {
  return 2 ** ((index + 1) / 2 ** scale);
}

/**
 * The exponential buckets of HDR buckets (ascending, µs) at `scale`, values in seconds: each HDR
 * bucket counted in the one holding its `highestUs`, a bucket whose highest is 0 in the zero count.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { toExponentialBuckets } from "./otlp_buckets.ts";
 * const buckets = toExponentialBuckets([
 *   { lowestUs: 0, highestUs: 0, count: 2 },
 *   { lowestUs: 500_000, highestUs: 500_255, count: 3 }, // just over 0.5 s
 *   { lowestUs: 500_256, highestUs: 500_511, count: 1 }, // same bucket
 * ], 8);
 * assert.deepEqual(buckets, { scale: 8, zeroCount: 2, offset: -256, counts: [4] });
 * ```
 */
export function toExponentialBuckets(hdr: readonly HdrBucket[], scale: number): ExponentialBuckets {
  let zeroCount = 0;
  const indexes = new Int32Array(hdr.length);
  let low = Infinity;
  let high = -Infinity;
  // The buckets come ascending, many HDR buckets to one exponential one: a logarithm only when a
  // value leaves the bucket of the one before.
  let index = 0;
  let lower = Infinity;
  let upper = -Infinity;
  hdr.forEach(({ highestUs, count }, i) => {
    if (count <= 0) return;
    if (highestUs <= 0) {
      zeroCount += count;
      return;
    }
    const seconds = highestUs / 1e6;
    if (!(seconds > lower && seconds <= upper)) {
      index = exponentialIndex(seconds, scale);
      lower = exponentialUpperBound(index - 1, scale);
      upper = exponentialUpperBound(index, scale);
    }
    indexes[i] = index;
    if (index < low) low = index;
    if (index > high) high = index;
  });
  if (low > high) return { scale, zeroCount, offset: 0, counts: [] };
  const counts = new Array<number>(high - low + 1).fill(0);
  hdr.forEach(({ highestUs, count }, i) => {
    if (count > 0 && highestUs > 0) counts[indexes[i] - low] += count;
  });
  return { scale, zeroCount, offset: low, counts };
}

const view = new DataView(new ArrayBuffer(8));

/** `e` when `value` is exactly `2^e` (a normal double with an all-zero mantissa). */
function powerOfTwoExponent(value: number): number | undefined {
  view.setFloat64(0, value);
  const high = view.getUint32(0);
  const low = view.getUint32(4);
  const biased = (high >>> 20) & 0x7ff;
  if (biased === 0 || (high & 0xfffff) !== 0 || low !== 0) return undefined;
  return biased - 1023;
}
