/**
 * encodeOtlpMetrics read by a receiver nobody here wrote: the OpenTelemetry Collector's pdata
 * types (tests/testdata/otlp_decoder, built by .ci/install-tools) decode what tailgate POSTs,
 * and every assertion reads their JSON, not tailgate's own decoder.
 */
import assert from "node:assert/strict";
import { createHistogram, type Histogram } from "../../../runner/hdr/mod.ts";
import { decode, rootFromJson } from "../../../runner/protobuf/mod.ts";
import { TAILGATE_VERSION } from "../../../runner/version.ts";
import type {
  HistogramPoint,
  HistogramSeries,
  MetricBatch,
} from "../../../reporters/export/metric_batch.ts";
import {
  encodeOtlpMetrics,
  OTLP_CONTENT_TYPE,
  OTLP_METRICS_PATH,
  traceIdBytes,
  unixNano,
} from "../../../reporters/export/otlp_metrics.ts";
import { exponentialUpperBound, OTLP_SCALE } from "../../../reporters/export/otlp_buckets.ts";
import { OTLP_METRICS_SCHEMA } from "../../../reporters/export/otlp_schema.ts";
import { mulberry32 } from "../../_helpers/seeded_random.ts";
import { ignoreWithoutOtlpDecoder, startOtlpDecoder } from "../../_helpers/otlp_decoder.ts";

const ignore = ignoreWithoutOtlpDecoder();
const START_MS = 1_764_460_800_000;
const TRACE_A = "4bf92f3577b34da6a3ce929d0e0e4736";
const TRACE_B = "0af7651916cd43dd8448eb211c80319c";
const PERCENTILES = [0, 50, 90, 99, 99.9, 99.99, 100];

/** Log-spread latencies from 300 µs to about 2.4 s, a few zeros and a slow tail; seeded. */
function latenciesUs(seed: number, n: number): number[] {
  const random = mulberry32(seed);
  const values = [0, 0, 0];
  for (let i = 0; i < n; i++) values.push(Math.round(300 * Math.exp(random() * 9)));
  for (let i = 0; i < 7; i++) values.push(2_000_000 + i * 61_000);
  return values;
}

function point(h: Histogram, timeMs: number): HistogramPoint {
  const count = h.totalCount;
  return {
    timeMs,
    count,
    sumSeconds: (h.mean * count) / 1e6,
    minSeconds: count === 0 ? 0 : h.getValueAtPercentile(0) / 1e6,
    maxSeconds: h.maxValue / 1e6,
    buckets: [...h.recordedValues()].map((r) => ({
      lowestUs: r.lowestUs,
      highestUs: r.valueUs,
      count: r.count,
    })),
  };
}

/** A histogram series of two cumulative points (the first half of the values, then all). */
function histogramSeries(label: string, seed: number): { series: HistogramSeries; h: Histogram } {
  const values = latenciesUs(seed, 4_000);
  const h = createHistogram();
  const half = Math.floor(values.length / 2);
  values.slice(0, half).forEach((v) => h.recordValue(v));
  const first = point(h, START_MS + 1_000);
  values.slice(half).forEach((v) => h.recordValue(v));
  const series: HistogramSeries = {
    kind: "histogram",
    name: "tailgate_response_time_seconds",
    help: "Response time from the intended send time",
    unit: "s",
    labels: { stage: "steady", label: label },
    startMs: START_MS,
    points: [first, point(h, START_MS + 2_000)],
    exemplars: [],
  };
  return { series, h };
}

function batch(): { batch: MetricBatch; histograms: Map<string, Histogram> } {
  const get = histogramSeries("GET /items", 1);
  const post = histogramSeries("POST /items", 2);
  get.series.exemplars = [
    { traceId: TRACE_A, valueSeconds: 2.366, timeMs: START_MS + 400.5, status: 200 },
    { traceId: TRACE_B, valueSeconds: 2.061, timeMs: START_MS + 1_500, status: 503 },
  ];
  post.series.exemplars = [{ valueSeconds: 2.183, timeMs: START_MS + 1_900, status: 0 }];
  const counter = (outcome: string, values: number[]) => ({
    kind: "counter" as const,
    name: "tailgate_requests",
    help: "Requests by outcome",
    unit: "{request}",
    labels: { stage: "steady", label: "GET /items", outcome },
    startMs: START_MS,
    points: values.map((value, i) => ({ timeMs: START_MS + 1_000 * (i + 1), value })),
  });
  return {
    batch: {
      resource: { plan: "checkout", run_id: "run-7", commit: "56ed05a", shard: "1/2" },
      series: [
        get.series,
        counter("ok", [1_990, 4_005]),
        counter("error", [5, 15]),
        post.series,
        {
          kind: "gauge",
          name: "tailgate_achieved_rate",
          help: "Requests a second, achieved",
          unit: "{request}/s",
          labels: { stage: "steady" },
          startMs: START_MS + 1_000,
          points: [{ timeMs: START_MS + 1_000, value: 1_999.5 }, {
            timeMs: START_MS + 2_000,
            value: 2_000.25,
          }],
        },
      ],
    },
    histograms: new Map([["GET /items", get.h], ["POST /items", post.h]]),
  };
}

// The OTLP/JSON pdata writes: camelCase fields, 64-bit integers as strings, ids as hex.
interface KeyValue {
  key: string;
  value: { stringValue?: string; intValue?: string };
}
interface ExpPoint {
  attributes: KeyValue[];
  startTimeUnixNano: string;
  timeUnixNano: string;
  count: string;
  sum?: number;
  scale: number;
  zeroCount?: string;
  positive: { offset?: number; bucketCounts?: string[] };
  min?: number;
  max?: number;
  exemplars?: Array<{
    filteredAttributes: KeyValue[];
    timeUnixNano: string;
    asDouble: number;
    traceId?: string;
  }>;
}
interface NumberPoint {
  attributes?: KeyValue[];
  startTimeUnixNano: string;
  timeUnixNano: string;
  asInt?: string;
  asDouble?: number;
}
interface Metric {
  name: string;
  description: string;
  unit: string;
  exponentialHistogram?: { dataPoints: ExpPoint[]; aggregationTemporality: number };
  sum?: { dataPoints: NumberPoint[]; aggregationTemporality: number; isMonotonic?: boolean };
  gauge?: { dataPoints: NumberPoint[] };
}
interface Request {
  resourceMetrics: Array<{
    resource: { attributes: KeyValue[] };
    scopeMetrics: Array<{ scope: { name: string; version: string }; metrics: Metric[] }>;
  }>;
}

async function decodedByCollector(b: MetricBatch, scale?: number): Promise<Request> {
  const decoder = await startOtlpDecoder();
  try {
    const response = await fetch(`${decoder.baseUrl}${OTLP_METRICS_PATH}`, {
      method: "POST",
      headers: { "content-type": OTLP_CONTENT_TYPE },
      body: encodeOtlpMetrics(b, { scale }),
    });
    assert.equal(response.status, 200, await response.text());
    const requests = await decoder.requests();
    assert.equal(requests.length, 1);
    return requests[0] as Request;
  } finally {
    await decoder.close();
  }
}

const attrs = (kvs: KeyValue[] | undefined) =>
  Object.fromEntries((kvs ?? []).map((kv) => [kv.key, kv.value.stringValue ?? kv.value.intValue]));

/** The value tailgate's HdrHistogram gives at `percentile`, read from exponential buckets. */
function upperBoundAtPercentile(p: ExpPoint, percentile: number): number {
  const count = Number(p.count);
  const rank = Math.max(Math.ceil((percentile / 100) * count - 1e-9), 1);
  let seen = Number(p.zeroCount ?? 0);
  if (seen >= rank) return 0;
  const counts = (p.positive.bucketCounts ?? []).map(Number);
  for (let i = 0; i < counts.length; i++) {
    seen += counts[i];
    if (seen >= rank) return exponentialUpperBound((p.positive.offset ?? 0) + i, p.scale);
  }
  throw new Error(`rank ${rank} past the buckets' ${seen}`);
}

Deno.test({
  name: "the collector's decoder reads the resource, the scope and every metric by its type",
  ignore,
  fn: async () => {
    const request = await decodedByCollector(batch().batch);
    assert.equal(request.resourceMetrics.length, 1);
    const [resourceMetrics] = request.resourceMetrics;
    assert.deepEqual(attrs(resourceMetrics.resource.attributes), {
      "service.name": "tailgate",
      plan: "checkout",
      run_id: "run-7",
      commit: "56ed05a",
      shard: "1/2",
    });
    assert.equal(resourceMetrics.scopeMetrics.length, 1);
    const [scope] = resourceMetrics.scopeMetrics;
    assert.deepEqual(scope.scope, { name: "tailgate", version: TAILGATE_VERSION });
    const shape = scope.metrics.map((m) => ({
      name: m.name,
      unit: m.unit,
      type: m.exponentialHistogram ? "exponentialHistogram" : m.sum ? "sum" : "gauge",
      temporality: (m.exponentialHistogram ?? m.sum)?.aggregationTemporality,
      monotonic: m.sum?.isMonotonic,
      points: (m.exponentialHistogram ?? m.sum ?? m.gauge)!.dataPoints.length,
    }));
    assert.deepEqual(shape, [
      {
        name: "tailgate_response_time_seconds",
        unit: "s",
        type: "exponentialHistogram",
        temporality: 2, // CUMULATIVE
        monotonic: undefined,
        points: 4,
      },
      {
        name: "tailgate_requests",
        unit: "{request}",
        type: "sum",
        temporality: 2,
        monotonic: true,
        points: 4,
      },
      {
        name: "tailgate_achieved_rate",
        unit: "{request}/s",
        type: "gauge",
        temporality: undefined,
        monotonic: undefined,
        points: 2,
      },
    ]);
    assert.equal(scope.metrics[0].description, "Response time from the intended send time");
  },
});

Deno.test({
  name: "counts, sums and times arrive exactly; labels are data point attributes",
  ignore,
  fn: async () => {
    const { batch: b, histograms } = batch();
    const [histogram, requests, rate] = (await decodedByCollector(b)).resourceMetrics[0]
      .scopeMetrics[0].metrics;
    for (const p of histogram.exponentialHistogram!.dataPoints) {
      const label = attrs(p.attributes).label!;
      assert.deepEqual(attrs(p.attributes), { stage: "steady", label });
      assert.equal(p.startTimeUnixNano, unixNano(START_MS));
      const bucketTotal = (p.positive.bucketCounts ?? []).reduce((a, c) => a + Number(c), 0);
      assert.equal(bucketTotal + Number(p.zeroCount ?? 0), Number(p.count));
      assert.equal(Number(p.zeroCount), 3);
      if (p.timeUnixNano === unixNano(START_MS + 2_000)) {
        const h = histograms.get(label)!;
        assert.equal(p.count, String(h.totalCount));
        assert.equal(p.sum, (h.mean * h.totalCount) / 1e6);
        assert.equal(p.min, 0);
        assert.equal(p.max, h.maxValue / 1e6);
      }
    }
    assert.deepEqual(
      requests.sum!.dataPoints.map((p) => [attrs(p.attributes).outcome, p.timeUnixNano, p.asInt]),
      [
        ["ok", unixNano(START_MS + 1_000), "1990"],
        ["ok", unixNano(START_MS + 2_000), "4005"],
        ["error", unixNano(START_MS + 1_000), "5"],
        ["error", unixNano(START_MS + 2_000), "15"],
      ],
    );
    assert.deepEqual(rate.gauge!.dataPoints.map((p) => p.asDouble), [1_999.5, 2_000.25]);
    assert.equal(rate.gauge!.dataPoints[0].startTimeUnixNano, unixNano(START_MS + 1_000));
  },
});

for (const scale of [OTLP_SCALE, 5]) {
  const error = 2 ** (2 ** -scale) - 1;
  Deno.test({
    name: `the exponential buckets at scale ${scale} give tailgate's percentiles within ${
      (error * 100).toFixed(3)
    }%`,
    ignore,
    fn: async () => {
      const { batch: b, histograms } = batch();
      const [histogram] = (await decodedByCollector(b, scale)).resourceMetrics[0].scopeMetrics[0]
        .metrics;
      const last = histogram.exponentialHistogram!.dataPoints.filter((p) =>
        p.timeUnixNano === unixNano(START_MS + 2_000)
      );
      assert.equal(last.length, 2);
      for (const p of last) {
        assert.equal(p.scale, scale);
        const h = histograms.get(attrs(p.attributes).label!)!;
        for (const percentile of PERCENTILES.slice(1)) {
          const tailgate = h.getValueAtPercentile(percentile) / 1e6;
          const upper = upperBoundAtPercentile(p, percentile);
          const off = upper / tailgate - 1;
          assert.ok(
            off >= -1e-12 && off < error,
            `p${percentile}: tailgate ${tailgate} s, bucket upper bound ${upper} s (${off})`,
          );
        }
      }
    },
  });
}

Deno.test({
  name: "exemplars carry their trace ids, values, times and statuses on the points they fall in",
  ignore,
  fn: async () => {
    const [histogram] = (await decodedByCollector(batch().batch)).resourceMetrics[0]
      .scopeMetrics[0].metrics;
    const exemplars = histogram.exponentialHistogram!.dataPoints.map((p) => ({
      label: attrs(p.attributes).label,
      time: p.timeUnixNano,
      exemplars: (p.exemplars ?? []).map((e) => ({
        traceId: e.traceId,
        value: e.asDouble,
        time: e.timeUnixNano,
        status: attrs(e.filteredAttributes).status,
      })),
    }));
    assert.deepEqual(exemplars, [
      {
        label: "GET /items",
        time: unixNano(START_MS + 1_000),
        exemplars: [
          { traceId: TRACE_A, value: 2.366, time: unixNano(START_MS + 400.5), status: "200" },
        ],
      },
      {
        label: "GET /items",
        time: unixNano(START_MS + 2_000),
        exemplars: [
          { traceId: TRACE_B, value: 2.061, time: unixNano(START_MS + 1_500), status: "503" },
        ],
      },
      { label: "POST /items", time: unixNano(START_MS + 1_000), exemplars: [] },
      {
        label: "POST /items",
        time: unixNano(START_MS + 2_000),
        exemplars: [
          { traceId: undefined, value: 2.183, time: unixNano(START_MS + 1_900), status: "0" },
        ],
      },
    ]);
  },
});

Deno.test({
  name: "the decoder is strict: a request cut short is refused with 400",
  ignore,
  fn: async () => {
    const decoder = await startOtlpDecoder();
    try {
      const bytes = encodeOtlpMetrics(batch().batch);
      const response = await fetch(`${decoder.baseUrl}${OTLP_METRICS_PATH}`, {
        method: "POST",
        headers: { "content-type": OTLP_CONTENT_TYPE },
        body: bytes.subarray(0, bytes.length - 3),
      });
      await response.body?.cancel();
      assert.equal(response.status, 400);
      assert.deepEqual(await decoder.requests(), []);
    } finally {
      await decoder.close();
    }
  },
});

Deno.test("a trace id is 16 bytes when it is 32 hex digits, not all zero; else absent", () => {
  assert.deepEqual(
    [...traceIdBytes(TRACE_B)!],
    [
      0x0a,
      0xf7,
      0x65,
      0x19,
      0x16,
      0xcd,
      0x43,
      0xdd,
      0x84,
      0x48,
      0xeb,
      0x21,
      0x1c,
      0x80,
      0x31,
      0x9c,
    ],
  );
  for (const bad of [undefined, "", "0".repeat(32), `${TRACE_B}00`, "zz".repeat(16)]) {
    assert.equal(traceIdBytes(bad), undefined, String(bad));
  }
});

Deno.test("a scale outside 0 to 8 is refused", () => {
  for (const scale of [-1, 9, 2.5, NaN]) {
    assert.throws(() => encodeOtlpMetrics({ resource: {}, series: [] }, { scale }), RangeError);
  }
});

Deno.test("epoch ms become nanoseconds exactly, past 2^53", () => {
  assert.equal(unixNano(START_MS), "1764460800000000000");
  assert.equal(unixNano(START_MS + 400.5), "1764460800400500000");
  assert.equal(unixNano(0), "0");
});

/** Our own reading of the bytes, for the shapes the collector's test above does not cover. */
function decodedHere(b: MetricBatch) {
  const request = decode(
    rootFromJson(OTLP_METRICS_SCHEMA),
    "opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest",
    encodeOtlpMetrics(b),
  ) as {
    resource_metrics: Array<{
      resource: { attributes: Array<{ key: string; value: { string_value: string } }> };
      scope_metrics: Array<{ metrics: Array<Record<string, unknown> & { name: string }> }>;
    }>;
  };
  return request.resource_metrics[0];
}

Deno.test("an empty histogram point has a zero count and sum, and no min, max or buckets", () => {
  const { series } = histogramSeries("GET /items", 3);
  series.points = [point(createHistogram(), START_MS + 1_000)];
  const [metric] = decodedHere({ resource: {}, series: [series] }).scope_metrics[0].metrics;
  const [p] = (metric.exponential_histogram as { data_points: Record<string, unknown>[] })
    .data_points;
  assert.equal(p.count, undefined); // proto3: a zero is not on the wire, and reads as 0
  assert.equal(p.sum, 0); // optional: sent
  assert.equal("min" in p || "max" in p, false);
  assert.deepEqual(p.positive, {});
});

Deno.test("a series without points is left out; one name is one metric", () => {
  const { series: a } = histogramSeries("GET /items", 4);
  const { series: b } = histogramSeries("POST /items", 5);
  const { series: empty } = histogramSeries("PUT /items", 6);
  empty.points = [];
  const metrics = decodedHere({ resource: {}, series: [a, empty, b] }).scope_metrics[0].metrics;
  assert.equal(metrics.length, 1);
  const points = (metrics[0].exponential_histogram as { data_points: unknown[] }).data_points;
  assert.equal(points.length, 4);
});

Deno.test("the resource cannot rename the service; a counter with a fraction is a double", () => {
  const decoded = decodedHere({
    resource: { "service.name": "other", plan: "p" },
    series: [{
      kind: "counter",
      name: "tailgate_send_lag_seconds",
      help: "lag",
      unit: "s",
      labels: {},
      startMs: START_MS,
      points: [{ timeMs: START_MS + 1_000, value: 0.25 }],
    }],
  });
  assert.deepEqual(
    decoded.resource.attributes.map((a) => [a.key, a.value.string_value]),
    [["service.name", "tailgate"], ["plan", "p"]],
  );
  const sum = decoded.scope_metrics[0].metrics[0].sum as { data_points: { as_double: number }[] };
  assert.equal(sum.data_points[0].as_double, 0.25);
});
