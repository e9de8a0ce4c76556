/**
 * A {@linkcode MetricBatch} as an OTLP/HTTP metrics request: the protobuf
 * `opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest` a sender POSTs to
 * `<base URL>/v1/metrics` ({@linkcode OTLP_METRICS_PATH}) as `application/x-protobuf`. Pure: it
 * builds bytes and sends nothing.
 *
 * - One resource: the batch's (`plan`, `run_id`, `commit`, `shard`) and `service.name` =
 *   `tailgate`; one scope, `tailgate` at its version.
 * - One metric per name (its series' labels tell its data points apart, as attributes), with the
 *   series' help as its description and its unit.
 * - A counter is a monotonic cumulative Sum (integers as `as_int`), a gauge a Gauge (`as_double`),
 *   a histogram a cumulative exponential histogram at scale {@linkcode OTLP_SCALE} (or the
 *   `scale` option's) with count, sum, min and max. `otlp_buckets.ts` says how HDR buckets map,
 *   the error (a percentile read from scale 8 is within 0.271% of tailgate's) and the size (about
 *   one byte per bucket from the lowest to the highest value, 256 buckets a doubling at scale 8). Every point starts at its series'
 *   `startMs`.
 * - A histogram's exemplars go on the first of its points at or after the exemplar's time (the
 *   last point when none is): the value in seconds, the time, the trace id as 16 bytes when the
 *   run sent one, and the status as the filtered attribute `status`.
 *
 * Importing this module evaluates protobufjs (runner/protobuf): load it on demand, off an HTTP
 * run's path.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { decode, rootFromJson } from "../../runner/protobuf/mod.ts";
 * import { encodeOtlpMetrics } from "./otlp_metrics.ts";
 * import { OTLP_METRICS_SCHEMA } from "./otlp_schema.ts";
 * const bytes = encodeOtlpMetrics({
 *   resource: { plan: "checkout" },
 *   series: [{
 *     kind: "counter", name: "tailgate_requests", help: "Requests", unit: "{request}",
 *     labels: { stage: "steady" }, startMs: 1_000, points: [{ timeMs: 2_000, value: 7 }],
 *   }],
 * });
 * const request = decode(
 *   rootFromJson(OTLP_METRICS_SCHEMA),
 *   "opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest",
 *   bytes,
 * ) as { resource_metrics: { scope_metrics: { metrics: { sum: unknown }[] }[] }[] };
 * assert.deepEqual(request.resource_metrics[0].scope_metrics[0].metrics[0].sum, {
 *   data_points: [{
 *     start_time_unix_nano: "1000000000",
 *     time_unix_nano: "2000000000",
 *     as_int: "7",
 *     attributes: [{ key: "stage", value: { string_value: "steady" } }],
 *   }],
 *   aggregation_temporality: "AGGREGATION_TEMPORALITY_CUMULATIVE",
 *   is_monotonic: true,
 * });
 * ```
 *
 * @module
 */
import { encode, type ProtoRoot, rootFromJson } from "../../runner/protobuf/mod.ts";
import { TAILGATE_VERSION } from "../../runner/version.ts";
import type {
  HistogramPoint,
  HistogramSeries,
  MetricBatch,
  MetricExemplar,
  MetricSeries,
  ScalarPoint,
} from "./metric_batch.ts";
import { OTLP_SCALE, toExponentialBuckets } from "./otlp_buckets.ts";
import { OTLP_METRICS_SCHEMA } from "./otlp_schema.ts";

/** Where an OTLP/HTTP receiver takes metrics, below its base URL. */
export const OTLP_METRICS_PATH = "/v1/metrics";

/** The content type of {@linkcode encodeOtlpMetrics}'s bytes. */
export const OTLP_CONTENT_TYPE = "application/x-protobuf";

const REQUEST_TYPE = "opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest";
const CUMULATIVE = 2;

let schema: ProtoRoot | undefined;

/** How to encode. */
export interface OtlpMetricsOptions {
  /**
   * The exponential histograms' scale, an integer from 0 to {@linkcode OTLP_SCALE} (the default):
   * each step down halves the buckets, and so a point's size, and doubles the error
   * (`2^(2^-scale) - 1`: 0.271% at 8, 2.19% at 5).
   */
  scale?: number;
}

/** The protobuf bytes of `batch` as an `ExportMetricsServiceRequest`. */
export function encodeOtlpMetrics(
  batch: MetricBatch,
  options: OtlpMetricsOptions = {},
): Uint8Array<ArrayBuffer> {
  const scale = options.scale ?? OTLP_SCALE;
  if (!Number.isInteger(scale) || scale < 0 || scale > OTLP_SCALE) {
    throw new RangeError(`OTLP histogram scale must be an integer from 0 to 8, got ${scale}`);
  }
  schema ??= rootFromJson(OTLP_METRICS_SCHEMA);
  const resource = { "service.name": "tailgate", ...withoutServiceName(batch.resource) };
  const bytes = encode(schema, REQUEST_TYPE, {
    resource_metrics: [{
      resource: { attributes: attributes(resource) },
      scope_metrics: [{
        scope: { name: "tailgate", version: TAILGATE_VERSION },
        metrics: groupByName(batch.series).map((group) => metric(group, scale)),
      }],
    }],
  });
  // A fetch body takes an ArrayBuffer's view, not a SharedArrayBuffer's.
  return bytes.buffer instanceof ArrayBuffer
    ? bytes as Uint8Array<ArrayBuffer>
    : new Uint8Array(bytes);
}

function withoutServiceName(resource: Record<string, string>): Record<string, string> {
  const { ["service.name"]: _, ...rest } = resource;
  return rest;
}

/** Series of one name and kind together, in the order of their first appearance. */
function groupByName(series: readonly MetricSeries[]): MetricSeries[][] {
  const groups = new Map<string, MetricSeries[]>();
  for (const s of series) {
    if (s.points.length === 0) continue;
    const key = `${s.kind}\u0000${s.name}`;
    const group = groups.get(key);
    if (group === undefined) groups.set(key, [s]);
    else group.push(s);
  }
  return [...groups.values()];
}

function metric(group: MetricSeries[], scale: number): Record<string, unknown> {
  const first = group[0];
  const head = { name: first.name, description: first.help, unit: first.unit };
  if (first.kind === "histogram") {
    return {
      ...head,
      exponential_histogram: {
        data_points: (group as HistogramSeries[]).flatMap((s) => histogramPoints(s, scale)),
        aggregation_temporality: CUMULATIVE,
      },
    };
  }
  if (first.kind === "gauge") {
    return {
      ...head,
      gauge: {
        data_points: group.flatMap((s) => numberPoints(s, s.points as ScalarPoint[], true)),
      },
    };
  }
  const doubles = group.some((s) =>
    (s.points as ScalarPoint[]).some((p) => !Number.isSafeInteger(p.value))
  );
  return {
    ...head,
    sum: {
      data_points: group.flatMap((s) => numberPoints(s, s.points as ScalarPoint[], doubles)),
      aggregation_temporality: CUMULATIVE,
      is_monotonic: true,
    },
  };
}

function numberPoints(s: MetricSeries, points: ScalarPoint[], doubles: boolean) {
  const labels = attributes(s.labels);
  const start = unixNano(s.startMs);
  return points.map((p) => ({
    attributes: labels,
    start_time_unix_nano: start,
    time_unix_nano: unixNano(p.timeMs),
    ...(doubles ? { as_double: p.value } : { as_int: String(p.value) }),
  }));
}

function histogramPoints(s: HistogramSeries, scale: number) {
  const labels = attributes(s.labels);
  const start = unixNano(s.startMs);
  const exemplars = exemplarsByPoint(s.points, s.exemplars);
  return s.points.map((p, i) => {
    const buckets = toExponentialBuckets(p.buckets, scale);
    return {
      attributes: labels,
      start_time_unix_nano: start,
      time_unix_nano: unixNano(p.timeMs),
      count: p.count,
      sum: p.sumSeconds,
      scale: buckets.scale,
      zero_count: buckets.zeroCount,
      positive: { offset: buckets.offset, bucket_counts: buckets.counts },
      ...(p.count > 0 ? { min: p.minSeconds, max: p.maxSeconds } : {}),
      exemplars: exemplars[i].map(exemplar),
    };
  });
}

/** Each exemplar on the first point at or after its time, else on the last point. */
function exemplarsByPoint(points: HistogramPoint[], exemplars: MetricExemplar[]) {
  const out: MetricExemplar[][] = points.map(() => []);
  for (const e of exemplars) {
    const at = points.findIndex((p) => p.timeMs >= e.timeMs);
    out[at === -1 ? points.length - 1 : at].push(e);
  }
  return out;
}

function exemplar(e: MetricExemplar) {
  const traceId = traceIdBytes(e.traceId);
  return {
    filtered_attributes: [{ key: "status", value: { int_value: e.status } }],
    time_unix_nano: unixNano(e.timeMs),
    as_double: e.valueSeconds,
    ...(traceId === undefined ? {} : { trace_id: traceId }),
  };
}

/** 16 bytes of a trace id of 32 hex digits, not all zero; undefined for anything else. */
export function traceIdBytes(traceId: string | undefined): Uint8Array | undefined {
  if (traceId === undefined || !/^[0-9a-fA-F]{32}$/.test(traceId) || /^0+$/.test(traceId)) {
    return undefined;
  }
  const bytes = new Uint8Array(16);
  for (let i = 0; i < 16; i++) bytes[i] = parseInt(traceId.slice(2 * i, 2 * i + 2), 16);
  return bytes;
}

function attributes(values: Record<string, string>) {
  return Object.entries(values).map(([key, value]) => ({ key, value: { string_value: value } }));
}

/**
 * Epoch ms as decimal nanoseconds, exact past 2^53 (ms keep their fraction to the nanosecond).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { unixNano } from "./otlp_metrics.ts";
 * assert.equal(unixNano(1_764_464_097_123.25), "1764464097123250000");
 * ```
 */
export function unixNano(epochMs: number): string {
  const whole = Math.floor(epochMs);
  const nanos = Math.round((epochMs - whole) * 1e6);
  return (BigInt(whole) * 1_000_000n + BigInt(nanos)).toString();
}
