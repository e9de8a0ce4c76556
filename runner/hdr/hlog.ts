/**
 * The HdrHistogram interval log (.hlog, format version 1.3) of a run: one histogram per interval
 * (1 s by default) for the corrected response time of all requests, and tagged lines for service
 * time, time to first byte (results that have it) and for each request label (tags:
 * {@linkcode hlogTag}). HistogramLogAnalyzer, Java's
 * `HistogramLogProcessor` and the Rust `hdrhistogram` crate read it (docs/reporters.md).
 *
 * Written as Java's `HistogramLogWriter` writes it: a StartTime and a BaseTime comment (the run's
 * start), interval timestamps in seconds relative to the BaseTime, Interval_Max in milliseconds
 * (the histogram's max over the default ratio 1e6), histograms in nanoseconds in the reference V2
 * compressed encoding. Numbers have 3 decimals, rounded half up like Java's `%.3f`.
 *
 * @module
 */
import { decodeHistogram, encodeHistogram } from "./hdr_codec.ts";
import {
  bucketGeometry,
  bucketRangeAt,
  countsIndexOf,
  HISTOGRAM_CONFIG,
  scaledLayout,
} from "./histogram_config.ts";
import type { EncodedHistogram, RunResult } from "../model/mod.ts";
import { type HlogMetric, hlogTag } from "./hlog_tag.ts";

/** Nanoseconds per microsecond: .hlog histograms are in nanoseconds, the result's in microseconds. */
const NS_PER_US = 1000;
/** Java's default max value unit ratio: Interval_Max in milliseconds of nanosecond values. */
const NS_PER_MS = 1_000_000;
const nsGeometry = bucketGeometry(scaledLayout(HISTOGRAM_CONFIG, NS_PER_US));

/**
 * The legend line of an interval log, as Java's `HistogramLogWriter.outputLegend()` writes it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { HLOG_LEGEND } from "./hlog.ts";
 * assert.equal(HLOG_LEGEND.startsWith('"StartTimestamp"'), true);
 * ```
 */
export const HLOG_LEGEND =
  '"StartTimestamp","Interval_Length","Interval_Max","Interval_Compressed_Histogram"';

/**
 * Renders a run's intervals as an HdrHistogram interval log. Per interval, in this order: the
 * untagged response time line, `Tag=service`, `Tag=ttfb`, then `Tag=response:<label>`,
 * `Tag=service:<label>` and `Tag=ttfb:<label>` for each label of the interval, in the result's
 * order. The ttfb lines are written where the result has the histograms (not before they were
 * recorded). Trailing intervals
 * with no request filed in them (the drain after the schedule) are left out.
 */
export function renderHlog(result: RunResult): string {
  const startEpochMs = Date.parse(result.run.startedAt);
  if (!Number.isSafeInteger(startEpochMs) || startEpochMs < 0) {
    throw new RangeError(`run.startedAt is not an ISO 8601 time: ${result.run.startedAt}`);
  }
  const startSec = thousandths(startEpochMs);
  const lines = [
    `#[Logged with tailgate ${result.environment.tailgateVersion}]`,
    "#[Histogram log format version 1.3]",
    `#[StartTime: ${startSec} (seconds since epoch), ${javaDateString(new Date(startEpochMs))}]`,
    `#[BaseTime: ${startSec} (seconds since epoch)]`,
    "#[Histograms in nanoseconds; untagged: response time (from intended send) of all requests]",
    "#[Tag=service: service time (from actual write); Tag=response:<label>, Tag=service:<label>: " +
    "one label, percent-encoded]",
    ...(result.intervals.some((i) => i.ttfb !== undefined)
      ? ["#[Tag=ttfb, Tag=ttfb:<label>: time to first byte (from intended send)]"]
      : []),
    HLOG_LEGEND,
  ];
  // After the schedule ends, the last interval holds only late answers, filed in the seconds they
  // were due: its histograms are empty, and readers would take its min of 0 for a measurement.
  let end = result.intervals.length;
  while (end > 0 && result.intervals[end - 1].response.count === 0) end--;
  for (const interval of result.intervals.slice(0, end)) {
    const startMs = Math.round(interval.startMs);
    const lengthMs = Math.round(interval.startMs + interval.durationMs) - startMs;
    const line = (metric: HlogMetric, h: EncodedHistogram, label?: string) => {
      const tag = hlogTag(metric, label);
      const fields = intervalFields(startMs, lengthMs, h);
      lines.push(tag === undefined ? fields : `Tag=${tag},${fields}`);
    };
    line("response", interval.response);
    line("service", interval.service);
    if (interval.ttfb !== undefined) line("ttfb", interval.ttfb);
    for (const l of interval.labels) {
      line("response", l.response, l.label);
      line("service", l.service, l.label);
      if (l.ttfb !== undefined) line("ttfb", l.ttfb, l.label);
    }
  }
  return lines.join("\n") + "\n";
}

/** `start,length,max,histogram`: times in seconds, max in milliseconds, histogram in ns. */
function intervalFields(startMs: number, lengthMs: number, encoded: EncodedHistogram): string {
  const h = decodeHistogram(encoded.hdr);
  const maxNs = h.totalCount === 0 ? 0 : encodedMaxNs(h.maxValue);
  // maxNs / 1e6 in thousandths, half up; exact: maxNs / 1000 is never within an ulp of a tie.
  const maxMs = thousandths(Math.round(maxNs / (NS_PER_MS / 1000)));
  const base64 = encodeHistogram(h, { unitScale: NS_PER_US });
  return `${thousandths(startMs)},${thousandths(lengthMs)},${maxMs},${base64}`;
}

/**
 * The max a reader of the nanosecond encoding reports: the top of the bucket the encoder puts the
 * microsecond max in (`hdr_codec.ts`: the last nanosecond bucket below `(maxUs + 1) * 1000`).
 */
function encodedMaxNs(maxUs: number): number {
  return bucketRangeAt(nsGeometry, countsIndexOf(nsGeometry, (maxUs + 1) * NS_PER_US) - 1).highest;
}

/** An integer count of thousandths as a decimal with 3 places: 1234 -> "1.234". */
function thousandths(count: number): string {
  return `${Math.floor(count / 1000)}.${String(count % 1000).padStart(3, "0")}`;
}

const DAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** Java's `Date.toString()` in UTC: `Thu Jan 02 03:04:05 UTC 2025`. */
function javaDateString(date: Date): string {
  const two = (n: number) => String(n).padStart(2, "0");
  const day = `${DAYS[date.getUTCDay()]} ${MONTHS[date.getUTCMonth()]} ${two(date.getUTCDate())}`;
  const time = [date.getUTCHours(), date.getUTCMinutes(), date.getUTCSeconds()].map(two).join(":");
  return `${day} ${time} UTC ${date.getUTCFullYear()}`;
}
