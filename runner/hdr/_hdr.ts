/**
 * Boundary around `hdr-histogram-js`: the only file that imports it. Everything else talks to the
 * small {@linkcode Histogram} interface below.
 *
 * Implementation choice: the pure-JS `Float64Histogram` (counts in a Float64Array), not WASM.
 * - Recording is fast enough: measured ~70 ns per recordValue in pure JS against ~22 ns with WASM
 *   (Deno 2.9.6, 2M log-spread values). 70 ns is ~14M values/s, far above what one load-generator
 *   process can issue, so WASM's speed-up buys nothing here.
 * - WASM needs an `initWebAssembly()` step and a manual `destroy()` to free its memory.
 * - Float64 counts are exact up to 2^53, where the 32-bit default would wrap at 2^32 in long merges.
 *   Memory: 23_552 buckets x 8 bytes = 188 KB per histogram.
 * Auto-resize is off, so every histogram has the same layout (required for exact merges and for
 * the encoder, which writes that layout into its header).
 *
 * @module
 */
// The class's own file, not the package's index: the index also loads the WASM build (a base64
// string), the log reader and writer and pako, about 28 ms of CPU in every thread that loads this
// file (a run has three), for nothing this project calls.
import Float64HistogramExports from "npm:hdr-histogram-js@3.0.1/dist/Float64Histogram.js";

/** Deno hands a CommonJS module's `module.exports` as its default; the class is its `default`. */
const Float64Histogram = Float64HistogramExports.default;
type Float64Histogram = InstanceType<typeof Float64Histogram>;
import { bucketGeometry, bucketRangeAt, HISTOGRAM_CONFIG } from "./histogram_config.ts";

/**
 * One recorded bucket: its highest equivalent value and how many values fell into it.
 */
export interface RecordedValue {
  /** The bucket's highest equivalent value, as percentiles report it. */
  readonly valueUs: number;
  /** The bucket's lowest equivalent value: every value counted here is at least this. */
  readonly lowestUs: number;
  /** How many recorded values fell into the bucket. */
  readonly count: number;
}

/**
 * A histogram's non-empty buckets as two parallel arrays (bucket index in the counts array of
 * {@linkcode HISTOGRAM_CONFIG}, and its count): a few kilobytes that copy cheaply between threads,
 * where the whole counts array is 188 KB.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createHistogram } from "./_hdr.ts";
 * const h = createHistogram();
 * h.recordValue(150);
 * const sparse = h.toSparse();
 * assert.deepEqual([...sparse.indexes, ...sparse.counts], [150, 1]);
 * ```
 */
export interface SparseCounts {
  /** Index of each non-empty bucket in the counts array, ascending. */
  readonly indexes: Uint32Array;
  /** Each bucket's count, at the same position as its index. */
  readonly counts: Float64Array;
}

/**
 * A latency histogram in {@linkcode HISTOGRAM_CONFIG} (microseconds, 3 significant digits).
 * Reported values are bucket bounds: `maxValue` and percentiles are the highest value equivalent
 * to the recorded one, `minNonZeroValue` the lowest, as in the Java and Rust implementations.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createHistogram } from "./_hdr.ts";
 * const h = createHistogram();
 * h.recordValue(1500);
 * assert.equal(h.getValueAtPercentile(99), 1500);
 * ```
 */
export interface Histogram {
  /** Records one value; throws RangeError unless it is an integer in [0, maxRecordableUs]. */
  recordValue(valueUs: number): void;
  /** Records `count` (a positive integer) occurrences of a value. */
  recordValueWithCount(valueUs: number, count: number): void;
  /** Adds (merges) every count of `other` into this histogram. */
  add(other: Histogram): void;
  /** Value at a percentile in [0, 100]; 0 when empty. */
  getValueAtPercentile(percentile: number): number;
  /** How many values were recorded. */
  readonly totalCount: number;
  /** Highest equivalent value of the largest recorded value; 0 when empty. */
  readonly maxValue: number;
  /** Lowest equivalent value of the smallest non-zero value; 0 when none was recorded. */
  readonly minNonZeroValue: number;
  /** Mean of the bucket midpoints weighted by count; 0 when empty. */
  readonly mean: number;
  /** Empties the histogram: every count back to zero. */
  reset(): void;
  /** The non-empty buckets in ascending value order. */
  recordedValues(): IterableIterator<RecordedValue>;
  /** The non-empty buckets as parallel arrays (one walk of the counts, two small allocations). */
  toSparse(): SparseCounts;
  /** Adds the counts of {@linkcode toSparse}'s output of a histogram of the same layout. */
  addSparse(sparse: SparseCounts): void;
}

const template = newLibraryHistogram();
const geometry = bucketGeometry(HISTOGRAM_CONFIG);

/**
 * The largest value a histogram accepts: the top of the bucket holding the 1-hour limit.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { maxRecordableUs } from "./_hdr.ts";
 * assert.equal(maxRecordableUs > 3_600_000_000, true); // (3_600_809_983)
 * ```
 */
export const maxRecordableUs: number = template.highestEquivalentValue(
  HISTOGRAM_CONFIG.highestTrackableValue,
);

/**
 * Creates an empty histogram in the project configuration.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createHistogram } from "./_hdr.ts";
 * const h = createHistogram();
 * h.recordValueWithCount(250, 10);
 * assert.equal(h.totalCount, 10);
 * ```
 */
export function createHistogram(): Histogram {
  return new LibraryBackedHistogram();
}

function newLibraryHistogram(): Float64Histogram {
  const { lowestDiscernibleValue, highestTrackableValue, significantValueDigits } =
    HISTOGRAM_CONFIG;
  const h = new Float64Histogram(
    lowestDiscernibleValue,
    highestTrackableValue,
    significantValueDigits,
  );
  h.autoResize = false;
  return h;
}

class LibraryBackedHistogram implements Histogram {
  readonly #h = newLibraryHistogram();

  recordValue(valueUs: number): void {
    checkValue(valueUs);
    this.#h.recordValue(valueUs);
  }

  recordValueWithCount(valueUs: number, count: number): void {
    checkValue(valueUs);
    if (!Number.isSafeInteger(count) || count < 1) {
      throw new RangeError(`count must be a positive safe integer, got ${count}`);
    }
    this.#h.recordValueWithCount(valueUs, count);
  }

  add(other: Histogram): void {
    if (other instanceof LibraryBackedHistogram) {
      this.#h.add(other.#h);
      return;
    }
    for (const { valueUs, count } of other.recordedValues()) {
      this.recordValueWithCount(valueUs, count);
    }
  }

  getValueAtPercentile(percentile: number): number {
    if (!(percentile >= 0 && percentile <= 100)) {
      throw new RangeError(`percentile must be in [0, 100], got ${percentile}`);
    }
    return this.#h.getValueAtPercentile(percentile);
  }

  get totalCount(): number {
    return this.#h.totalCount;
  }

  get maxValue(): number {
    return this.#h.totalCount === 0 ? 0 : this.#h.highestEquivalentValue(this.#h.maxValue);
  }

  get minNonZeroValue(): number {
    const min = this.#h.minNonZeroValue;
    return min > maxRecordableUs ? 0 : this.#h.lowestEquivalentValue(min);
  }

  get mean(): number {
    // The library's own mean walks an iterator object per bucket (~1 ms for a few thousand
    // values); this walks the counts array once. Same definition: bucket midpoints by count.
    const h = this.#h;
    const total = h.totalCount;
    if (total === 0) return 0;
    let sum = 0;
    for (let index = 0, seen = 0; seen < total && index < h.countsArrayLength; index++) {
      const count = h.getCountAtIndex(index);
      if (count === 0) continue;
      seen += count;
      const { lowest, highest } = bucketRangeAt(geometry, index);
      sum += count * (lowest + Math.floor((highest - lowest + 1) / 2));
    }
    return sum / total;
  }

  reset(): void {
    this.#h.reset();
  }

  toSparse(): SparseCounts {
    const h = this.#h;
    const total = h.totalCount;
    let n = 0;
    let last = -1;
    for (let index = 0, seen = 0; seen < total && index < h.countsArrayLength; index++) {
      const count = h.getCountAtIndex(index);
      if (count === 0) continue;
      seen += count;
      n++;
      last = index;
    }
    const indexes = new Uint32Array(n);
    const counts = new Float64Array(n);
    for (let index = 0, i = 0; i < n && index <= last; index++) {
      const count = h.getCountAtIndex(index);
      if (count === 0) continue;
      indexes[i] = index;
      counts[i++] = count;
    }
    return { indexes, counts };
  }

  addSparse(sparse: SparseCounts): void {
    const { indexes, counts } = sparse;
    if (indexes.length !== counts.length) {
      throw new RangeError("sparse counts: indexes and counts differ in length");
    }
    for (let i = 0; i < indexes.length; i++) {
      const index = indexes[i];
      if (!Number.isSafeInteger(index) || index >= geometry.countsLength) {
        throw new RangeError(`sparse counts: bucket index ${index} is outside the layout`);
      }
      this.recordValueWithCount(bucketRangeAt(geometry, index).highest, counts[i]);
    }
  }

  *recordedValues(): IterableIterator<RecordedValue> {
    // A private iterator: the library's shared one would be corrupted by nested iteration.
    const h = this.#h;
    for (let index = 0, seen = 0; seen < h.totalCount && index < h.countsArrayLength; index++) {
      const count = h.getCountAtIndex(index);
      if (count === 0) continue;
      seen += count;
      const { lowest, highest } = bucketRangeAt(geometry, index);
      yield { valueUs: highest, lowestUs: lowest, count };
    }
  }
}

function checkValue(valueUs: number): void {
  if (!Number.isSafeInteger(valueUs) || valueUs < 0 || valueUs > maxRecordableUs) {
    throw new RangeError(`value must be an integer in [0, ${maxRecordableUs}] us, got ${valueUs}`);
  }
}
