/**
 * The Rust `hdrhistogram` crate's readings of interval logs (tests/testdata/hdr/
 * reference_hlog_vectors.json and the .hlog files beside it), and how a nanosecond reading maps to
 * tailgate's microsecond histograms.
 *
 * The vectors were produced once, outside this repository, by a small Rust program using the
 * `hdrhistogram` crate 7.6.0 from crates.io (u64 counts):
 * - it wrote rust_written.hlog (`V2DeflateSerializer`) and rust_written_uncompressed.hlog
 *   (`V2Serializer`) with `IntervalLogWriterBuilder`: a comment, StartTime 1700000000.250, BaseTime
 *   1700000000.000, max value divisor 1e6, then seven nanosecond histograms (seeded log-spread
 *   values, zeros and sub-microsecond values, an empty one, layouts with 2, 3 and 5 significant
 *   digits and a lowest discernible value of 1000, a 50-minute value), untagged and tagged
 *   (`service`, `response:GET%20/orders`, `gc-pauses`), with a comment between intervals;
 * - it read those logs and tailgate_sample.hlog / tailgate_intervals.hlog (`renderHlog()` of the
 *   fixtures in ./_hlog_fixtures.ts) with `IntervalLogIterator`, base64-decoded each histogram and
 *   deserialized it with `Deserializer`, and recorded per entry: tag, start timestamp and duration
 *   (as the crate's Durations), the Interval_Max column, and the histogram's layout, total count,
 *   min non-zero, max, percentiles (1, 50, 75, 90, 99, 99.9, 99.99, 100) and recorded buckets.
 *
 * @module
 */
import {
  bucketGeometry,
  bucketRangeAt,
  countsIndexOf,
  HISTOGRAM_CONFIG,
} from "../../../runner/hdr/histogram_config.ts";

/** A `std::time::Duration` as the Rust program recorded it. */
export interface RustDuration {
  secs: number;
  nanos: number;
}

/** The crate's readings of one deserialized histogram (values in nanoseconds). */
export interface RustHistogramReadings {
  layout: {
    lowestDiscernibleValue: number;
    highestTrackableValue: number;
    significantValueDigits: number;
  };
  totalCount: number;
  minNonZero: number | null;
  max: number;
  percentiles: Array<[number, number]>;
  recorded: Array<[number, number]>;
}

/** One interval line as the crate read it. */
export interface RustEntry {
  tag: string | null;
  startTimestamp: RustDuration;
  duration: RustDuration;
  /** The Interval_Max column as parsed by the crate. */
  max: number;
  histogram: RustHistogramReadings;
}

/** One log as the crate read it. */
export interface RustLog {
  file: string;
  startTimes: RustDuration[];
  baseTimes: RustDuration[];
  entries: RustEntry[];
}

/** The vectors file. */
export interface HlogVectors {
  rustWritten: Array<RustLog & { serializer: string }>;
  readByReference: Array<RustLog & { fixture: "sample" | "intervals" }>;
}

const testdata = new URL("../../testdata/hdr/", import.meta.url);

/**
 * The parsed vectors file.
 *
 * @example
 * ```ts
 * import { HLOG_VECTORS } from "./_hlog_vectors.ts";
 * HLOG_VECTORS.rustWritten.length; // 2
 * ```
 */
export const HLOG_VECTORS: HlogVectors = JSON.parse(
  await Deno.readTextFile(new URL("reference_hlog_vectors.json", testdata)),
);

/**
 * The text of a committed .hlog file of tests/testdata/hdr.
 *
 * @example
 * ```ts
 * import { readTestLog } from "./_hlog_vectors.ts";
 * (await readTestLog("rust_written.hlog")).startsWith("#"); // true
 * ```
 */
export function readTestLog(file: string): Promise<string> {
  return Deno.readTextFile(new URL(file, testdata));
}

/**
 * A Duration in milliseconds (exact for the 3-decimal times of interval logs).
 *
 * @example
 * ```ts
 * import { durationMs } from "./_hlog_vectors.ts";
 * durationMs({ secs: 3, nanos: 510_000_000 }); // 3510
 * ```
 */
export function durationMs(d: RustDuration): number {
  return d.secs * 1000 + d.nanos / 1_000_000;
}

const usGeometry = bucketGeometry(HISTOGRAM_CONFIG);

/**
 * The microsecond bucket (project layout) a nanosecond value falls in once divided by 1000 and
 * rounded down: where tailgate's decoder puts a nanosecond bucket whose highest value it is.
 *
 * @example
 * ```ts
 * import { usBucketOfNs } from "./_hlog_vectors.ts";
 * usBucketOfNs(2_049_999); // { lowest: 2048, highest: 2049 }
 * ```
 */
export function usBucketOfNs(valueNs: number): { lowest: number; highest: number } {
  return bucketRangeAt(usGeometry, countsIndexOf(usGeometry, Math.floor(valueNs / 1000)));
}

/**
 * The crate's recorded nanosecond buckets as tailgate's decoder lays them out in microseconds:
 * each count at the top of {@linkcode usBucketOfNs}, counts of one microsecond bucket added.
 *
 * @example
 * ```ts
 * import { usBucketsOf } from "./_hlog_vectors.ts";
 * usBucketsOf([[999, 2], [2_048_500, 1], [2_049_999, 3]]); // [[0, 2], [2049, 4]]
 * ```
 */
export function usBucketsOf(recordedNs: ReadonlyArray<[number, number]>): Array<[number, number]> {
  const buckets: Array<[number, number]> = [];
  for (const [valueNs, count] of recordedNs) {
    const top = usBucketOfNs(valueNs).highest;
    const last = buckets.at(-1);
    if (last?.[0] === top) last[1] += count;
    else buckets.push([top, count]);
  }
  return buckets;
}
