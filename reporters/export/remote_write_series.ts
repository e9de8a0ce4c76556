/**
 * A histogram series of a metric batch as remote write's `TimeSeries` entries: one native
 * histogram series, or the classic `_bucket`/`_count`/`_sum` series (see
 * `remote_write_buckets.ts` for the buckets), each with its exemplars.
 *
 * @module
 */
import type { HistogramSeries, MetricExemplar } from "./metric_batch.ts";
import {
  bucketTop,
  CLASSIC_SCHEMA,
  classicCumulative,
  classicIndex,
  classicRange,
  NATIVE_SCHEMA,
  nativeBuckets,
} from "./remote_write_buckets.ts";

/** A label as remote write carries it. */
export interface WireLabel {
  name: string;
  value: string;
}

/** A `TimeSeries` as the plain object protobufjs encodes. */
export interface WireSeries {
  labels: WireLabel[];
  samples?: Array<{ value: number; timestamp: number }>;
  exemplars?: Array<{ labels: WireLabel[]; value: number; timestamp: number }>;
  histograms?: WireHistogram[];
}

/** A native histogram sample as the plain object protobufjs encodes. */
export interface WireHistogram {
  countInt: number;
  sum: number;
  schema: number;
  zeroThreshold: number;
  zeroCountInt: number;
  positiveSpans: Array<{ offset: number; length: number }>;
  positiveDeltas: number[];
  timestamp: number;
}

/**
 * Labels as a sorted list of pairs, by name (code-unit order, which is byte order for the ASCII
 * names Prometheus allows).
 */
export function sortedLabels(labels: Record<string, string>): WireLabel[] {
  return Object.keys(labels).sort((a, b) => a < b ? -1 : a > b ? 1 : 0)
    .map((name) => ({ name, value: labels[name] }));
}

/** The series as native histograms: the histogram entry, then its exemplars' entry if any. */
export function nativeSeries(
  series: HistogramSeries,
  name: string,
  labels: Record<string, string>,
): WireSeries[] {
  const wireLabels = sortedLabels({ ...labels, __name__: name });
  const memo = new Map<number, number>();
  const histograms = inTimeOrder(series.points).map((p): WireHistogram => {
    const { zeroCount, spans, deltas } = nativeBuckets(p.buckets, memo);
    // The count is the buckets' own sum: later Prometheus versions refuse a histogram whose
    // count and buckets disagree, and in a consistent batch the two are one number.
    const inBuckets = p.buckets.reduce((n, b) => n + b.count, 0);
    return {
      countInt: inBuckets,
      sum: p.sumSeconds,
      schema: NATIVE_SCHEMA,
      zeroThreshold: 0,
      zeroCountInt: zeroCount,
      positiveSpans: spans,
      positiveDeltas: deltas,
      timestamp: p.timeMs,
    };
  });
  const out: WireSeries[] = [{ labels: wireLabels, histograms }];
  const exemplars = sendable(series.exemplars);
  if (exemplars.length > 0) {
    out.push({ labels: wireLabels, exemplars: exemplars.map(wireExemplar) });
  }
  return out;
}

/** The series as classic `_bucket` (one per boundary, and `+Inf`), `_count` and `_sum` series. */
export function classicSeries(
  series: HistogramSeries,
  name: string,
  labels: Record<string, string>,
): WireSeries[] {
  const points = inTimeOrder(series.points);
  const { low, high } = classicRange(points.map((p) => p.buckets));
  const memo = new Map<number, number>();
  const cumulative = points.map((p) => classicCumulative(p.buckets, low, high, memo));
  const exemplarsAt = new Map<number, MetricExemplar[]>();
  for (const e of sendable(series.exemplars)) {
    const index = e.valueSeconds > 0 ? classicIndex(e.valueSeconds) : low;
    const at = index < low ? low : index > high ? Infinity : index;
    exemplarsAt.set(at, [...exemplarsAt.get(at) ?? [], e]);
  }
  const out: WireSeries[] = [];
  const bucket = (le: string, at: number, value: (i: number) => number): void => {
    out.push({
      labels: sortedLabels({ ...labels, __name__: `${name}_bucket`, le }),
      samples: points.map((p, i) => ({ value: value(i), timestamp: p.timeMs })),
      ...(exemplarsAt.has(at) ? { exemplars: exemplarsAt.get(at)!.map(wireExemplar) } : {}),
    });
  };
  for (let k = low; k <= high; k++) {
    bucket(String(bucketTop(k, CLASSIC_SCHEMA)), k, (i) => cumulative[i][k - low]);
  }
  bucket("+Inf", Infinity, (i) => points[i].count);
  out.push({
    labels: sortedLabels({ ...labels, __name__: `${name}_count` }),
    samples: points.map((p) => ({ value: p.count, timestamp: p.timeMs })),
  });
  out.push({
    labels: sortedLabels({ ...labels, __name__: `${name}_sum` }),
    samples: points.map((p) => ({ value: p.sumSeconds, timestamp: p.timeMs })),
  });
  return out;
}

function wireExemplar(e: MetricExemplar) {
  return {
    labels: e.traceId === undefined ? [] : [{ name: "trace_id", value: e.traceId }],
    value: e.valueSeconds,
    timestamp: e.timeMs,
  };
}

/** The exemplars with a finite value (a latency), in time order. */
function sendable(exemplars: readonly MetricExemplar[]): MetricExemplar[] {
  return inTimeOrder(exemplars.filter((e) => Number.isFinite(e.valueSeconds)));
}

function inTimeOrder<T extends { timeMs: number }>(items: readonly T[]): T[] {
  return [...items].sort((a, b) => a.timeMs - b.timeMs);
}
