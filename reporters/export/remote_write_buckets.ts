/**
 * Where remote write puts tailgate's HDR buckets: the exponential bucket schemes of Prometheus's
 * native histograms, and the classic `le` boundaries drawn from one of them.
 *
 * - Native: schema {@linkcode NATIVE_SCHEMA} (3): bucket `i` holds (2^((i-1)/8), 2^(i/8)]
 *   seconds, so a bucket's top is {@linkcode NATIVE_BUCKET_RATIO} (2^(1/8) ≈ 1.0905) times its
 *   bottom; zero threshold 0 (only values of 0 µs fall in the zero bucket). PromQL's
 *   `histogram_quantile` interpolates inside the bucket that holds the quantile's rank, so it
 *   lands in the bucket that holds tailgate's own percentile: at most 9.05% from it, either way.
 *   The whole trackable range (1 µs to 1 hour) spans 255 buckets; a run sends the non-empty ones.
 * - Classic: the `le` boundaries are the bucket tops of schema {@linkcode CLASSIC_SCHEMA} (2),
 *   2^(k/4) seconds (4 per octave, ratio {@linkcode CLASSIC_BOUNDARY_RATIO} ≈ 1.1892), from
 *   2^(-57/4) s ≈ 51.3 µs ({@linkcode CLASSIC_LOWEST_INDEX}) up: `histogram_quantile` lands in
 *   the bucket holding tailgate's percentile, at most 18.92% from it (values under 51.3 µs share
 *   the lowest bucket, from 0). Every other native boundary is a classic one, so a classic bucket
 *   is two native buckets. Cardinality is bounded by the run's own spread: a series sends the
 *   boundaries from the last one below its smallest value (an empty bucket, so the first
 *   bucket's interpolation starts at its true bottom) to the first one at or above its largest,
 *   and `+Inf`: 4 per octave + 2 (a run between 1 ms and 1 s: 42 `_bucket` series), never more
 *   than 106 + `+Inf` (51.3 µs to the 1-hour limit).
 *
 * Each HDR bucket (at most 0.1% wide) goes whole into the bucket holding its `highestUs`, the
 * value tailgate reports for the percentiles that fall in it. "The bucket holding tailgate's
 * percentile" is exact where both count ranks alike: PromQL takes the first bucket whose
 * cumulative count reaches q × count, HdrHistogram the value at rank ⌈q × count⌉, the same
 * value (tests/reporters/export/remote_write_prometheus_test.ts checks p50 to p99.9).
 *
 * @module
 */

/** The native histograms' schema: 8 buckets per power of two. */
export const NATIVE_SCHEMA = 3;
/** A native bucket's top over its bottom. */
export const NATIVE_BUCKET_RATIO: number = 2 ** (1 / 8);
/** The schema the classic boundaries are the bucket tops of: 4 per power of two. */
export const CLASSIC_SCHEMA = 2;
/** A classic bucket's `le` over the one below it. */
export const CLASSIC_BOUNDARY_RATIO: number = 2 ** (1 / 4);
/** The lowest classic boundary's index: 2^(-57/4) s ≈ 51.3 µs. */
export const CLASSIC_LOWEST_INDEX = -57;

/** An HDR bucket as the metric batch carries it. */
export interface HdrBucket {
  lowestUs: number;
  highestUs: number;
  count: number;
}

/**
 * The top of bucket `index` of `schema`, seconds: 2^(index / 2^schema).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { bucketTop } from "./remote_write_buckets.ts";
 * assert.equal(bucketTop(-8, 3), 0.5);
 * ```
 */
export function bucketTop(index: number, schema: number): number {
  return 2 ** (index / 2 ** schema);
}

/**
 * The index of the bucket of `schema` holding `seconds` (> 0): the `i` with
 * bucketTop(i - 1) < seconds <= bucketTop(i), as Prometheus counts them.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { bucketIndex } from "./remote_write_buckets.ts";
 * assert.equal(bucketIndex(0.5, 3), -8);
 * assert.equal(bucketIndex(0.51, 3), -7);
 * ```
 */
export function bucketIndex(seconds: number, schema: number): number {
  if (!(seconds > 0 && Number.isFinite(seconds))) {
    throw new RangeError(`a bucket holds a finite value above 0, got ${seconds}`);
  }
  let index = Math.ceil(Math.log2(seconds) * 2 ** schema);
  while (bucketTop(index - 1, schema) >= seconds) index--;
  while (bucketTop(index, schema) < seconds) index++;
  return index;
}

/** A native histogram's buckets: the zero bucket's count, spans and delta-encoded counts. */
export interface NativeBuckets {
  zeroCount: number;
  /** The first span's offset is its first bucket's index; later ones the gap since the last. */
  spans: Array<{ offset: number; length: number }>;
  /** The first bucket's count, then each bucket's count less the one before it. */
  deltas: number[];
}

/**
 * A memo of bucket indexes by HDR `highestUs`, for one encoding: the points of a series repeat the
 * same HDR buckets, and a logarithm per bucket per point costs more than the rest of the work.
 */
export type IndexMemo = Map<number, number>;

function memoIndex(memo: IndexMemo, highestUs: number, index: (seconds: number) => number) {
  let found = memo.get(highestUs);
  if (found === undefined) {
    found = index(highestUs / 1e6);
    memo.set(highestUs, found);
  }
  return found;
}

/**
 * HDR buckets (ascending) as a native histogram of {@linkcode NATIVE_SCHEMA}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { nativeBuckets } from "./remote_write_buckets.ts";
 * const got = nativeBuckets([
 *   { lowestUs: 0, highestUs: 0, count: 1 },
 *   { lowestUs: 500_000, highestUs: 500_000, count: 3 }, // 0.5 s: index -8
 *   { lowestUs: 540_000, highestUs: 540_000, count: 1 }, // index -7
 *   { lowestUs: 1_000_000, highestUs: 1_000_000, count: 2 }, // index 0
 * ]);
 * assert.deepEqual(got, {
 *   zeroCount: 1,
 *   spans: [{ offset: -8, length: 2 }, { offset: 6, length: 1 }],
 *   deltas: [3, -2, 1],
 * });
 * ```
 */
export function nativeBuckets(
  buckets: readonly HdrBucket[],
  memo: IndexMemo = new Map(),
): NativeBuckets {
  let zeroCount = 0;
  const indexes: number[] = [];
  const counts: number[] = [];
  for (const b of buckets) {
    if (b.count === 0) continue;
    if (b.highestUs <= 0) {
      zeroCount += b.count;
      continue;
    }
    const index = memoIndex(memo, b.highestUs, (v) => bucketIndex(v, NATIVE_SCHEMA));
    if (indexes.length > 0 && indexes[indexes.length - 1] === index) {
      counts[counts.length - 1] += b.count;
    } else {
      indexes.push(index);
      counts.push(b.count);
    }
  }
  const spans: NativeBuckets["spans"] = [];
  const deltas: number[] = [];
  for (let i = 0; i < indexes.length; i++) {
    if (i > 0 && indexes[i] === indexes[i - 1] + 1) {
      spans[spans.length - 1].length++;
    } else {
      spans.push({ offset: i === 0 ? indexes[0] : indexes[i] - indexes[i - 1] - 1, length: 1 });
    }
    deltas.push(i === 0 ? counts[0] : counts[i] - counts[i - 1]);
  }
  return { zeroCount, spans, deltas };
}

/** The index of the classic bucket holding `seconds`: the lowest for anything at or below it. */
export function classicIndex(seconds: number): number {
  return seconds <= bucketTop(CLASSIC_LOWEST_INDEX, CLASSIC_SCHEMA)
    ? CLASSIC_LOWEST_INDEX
    : bucketIndex(seconds, CLASSIC_SCHEMA);
}

/**
 * The classic boundaries' indexes a series sends, lowest and highest, given every point's HDR
 * buckets: from the one below the bucket of its smallest value to the one of its largest.
 */
export function classicRange(points: ReadonlyArray<readonly HdrBucket[]>): {
  low: number;
  high: number;
} {
  let first = Infinity;
  let last = -Infinity;
  for (const buckets of points) {
    const filled = buckets.filter((b) => b.count > 0);
    if (filled.length === 0) continue;
    first = Math.min(first, classicIndex(filled[0].highestUs / 1e6));
    last = Math.max(last, classicIndex(filled[filled.length - 1].highestUs / 1e6));
  }
  if (first === Infinity) return { low: CLASSIC_LOWEST_INDEX, high: CLASSIC_LOWEST_INDEX };
  const low = Math.max(CLASSIC_LOWEST_INDEX, first - 1);
  return { low, high: Math.max(low, last) };
}

/**
 * The cumulative count at each classic boundary from `low` to `high` (the values at or below it).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { classicCumulative } from "./remote_write_buckets.ts";
 * const buckets = [
 *   { lowestUs: 400_000, highestUs: 400_000, count: 2 }, // 2^(-6/4) ≈ 0.354 < 0.4 <= 2^(-5/4)
 *   { lowestUs: 1_000_000, highestUs: 1_000_000, count: 1 }, // le 1
 * ];
 * assert.deepEqual(classicCumulative(buckets, -6, 0), [0, 2, 2, 2, 2, 2, 3]);
 * ```
 */
export function classicCumulative(
  buckets: readonly HdrBucket[],
  low: number,
  high: number,
  memo: IndexMemo = new Map(),
): number[] {
  const perBucket = new Array<number>(high - low + 1).fill(0);
  for (const b of buckets) {
    if (b.count === 0) continue;
    const index = Math.max(low, memoIndex(memo, b.highestUs, classicIndex));
    if (index <= high) perBucket[index - low] += b.count;
  }
  let sum = 0;
  return perBucket.map((c) => sum += c);
}
