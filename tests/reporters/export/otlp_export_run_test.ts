/**
 * A run's result exported as `--export otlp=URL` does it (run metrics, the bounded sender, the
 * OTLP encoder on its wire) to a receiver nobody here wrote: the OpenTelemetry Collector's pdata
 * decoding every request (tests/testdata/otlp_decoder). What arrives is what the result says:
 * every series, the counts exactly, the percentiles within the scale's error, the exemplars'
 * trace ids.
 */
import assert from "node:assert/strict";
import type { RunResult } from "../../../runner/model/mod.ts";
import { type ExportTarget, otlpMetricsUrl } from "../../../runner/plan/mod.ts";
import { runMetrics } from "../../../reporters/export/run_metrics.ts";
import { exportWarning, sendExport } from "../../../reporters/export/send_exports.ts";
import { encodeOtlpMetrics, OTLP_CONTENT_TYPE } from "../../../reporters/export/otlp_metrics.ts";
import {
  exponentialUpperBound,
  OTLP_RELATIVE_ERROR,
} from "../../../reporters/export/otlp_buckets.ts";
import { sampleResult } from "../../_helpers/result_fixtures.ts";
import { ignoreWithoutOtlpDecoder, startOtlpDecoder } from "../../_helpers/otlp_decoder.ts";

const ignore = ignoreWithoutOtlpDecoder();
const SLOW_TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";

interface KeyValue {
  key: string;
  value: { stringValue?: string; intValue?: string };
}
interface DataPoint {
  attributes?: KeyValue[];
  timeUnixNano: string;
  count?: string;
  zeroCount?: string;
  scale?: number;
  positive?: { offset?: number; bucketCounts?: string[] };
  asInt?: string;
  asDouble?: number;
  exemplars?: Array<{ traceId?: string; asDouble: number; filteredAttributes: KeyValue[] }>;
}
interface Metric {
  name: string;
  exponentialHistogram?: { dataPoints: DataPoint[] };
  sum?: { dataPoints: DataPoint[] };
  gauge?: { dataPoints: DataPoint[] };
}
interface Request {
  resourceMetrics: Array<{
    resource: { attributes: KeyValue[] };
    scopeMetrics: Array<{ metrics: Metric[] }>;
  }>;
}

const attrs = (kvs: KeyValue[] | undefined) =>
  Object.fromEntries((kvs ?? []).map((kv) => [kv.key, kv.value.stringValue ?? kv.value.intValue]));

/** A result whose first label of the main stage has two slow requests, one with a trace id. */
function resultWithSlowest(): RunResult {
  const result = sampleResult();
  const label = result.stages[1].labels[0];
  label.slowest = [
    { traceId: SLOW_TRACE, intendedMs: 1_250, responseUs: label.response.maxUs, status: 200 },
    { intendedMs: 1_700, responseUs: label.response.maxUs - 1, status: 0, error: "timeout" },
  ];
  // The recorder's own percentile requests would be exemplars too: these two alone are.
  delete label.exemplars;
  return result;
}

/** Each series the decoder read: `name {attributes}` → its points, across every request. */
async function exportedSeries(result: RunResult): Promise<Map<string, DataPoint[]>> {
  const decoder = await startOtlpDecoder();
  try {
    const target: ExportTarget = {
      kind: "otlp",
      url: decoder.baseUrl,
      urlText: decoder.baseUrl,
      headers: [],
    };
    const batch = runMetrics(result);
    const report = await sendExport(batch, target, {
      url: (t) => otlpMetricsUrl(t.url),
      headers: { "content-type": OTLP_CONTENT_TYPE },
      encode: (b) => encodeOtlpMetrics(b),
    }, { seriesPerRequest: 7 });
    assert.equal(exportWarning(report), undefined, report.reasons.join("; "));
    const requests = (await decoder.requests()) as Request[];
    assert.ok(requests.length > 1, "sent in several requests");
    const series = new Map<string, DataPoint[]>();
    for (const request of requests) {
      for (const rm of request.resourceMetrics) {
        assert.equal(attrs(rm.resource.attributes)["service.name"], "tailgate");
        for (const metric of rm.scopeMetrics.flatMap((s) => s.metrics)) {
          const points = (metric.exponentialHistogram ?? metric.sum ?? metric.gauge)!.dataPoints;
          for (const p of points) {
            const key = seriesKey(metric.name, attrs(p.attributes));
            series.set(key, [...series.get(key) ?? [], p]);
          }
        }
      }
    }
    return series;
  } finally {
    await decoder.close();
  }
}

function seriesKey(name: string, labels: Record<string, string | undefined>): string {
  const sorted = Object.keys(labels).sort().map((k) => `${k}=${labels[k]}`);
  return `${name} {${sorted.join(",")}}`;
}

const latest = (points: DataPoint[]) =>
  points.reduce((a, b) => (BigInt(b.timeUnixNano) > BigInt(a.timeUnixNano) ? b : a));

Deno.test({
  name: "every series of a run arrives at the collector's decoder, its points all there",
  ignore,
  fn: async () => {
    const result = resultWithSlowest();
    const batch = runMetrics(result);
    const arrived = await exportedSeries(result);
    const expected = batch.series.filter((s) => s.points.length > 0);
    assert.deepEqual(
      [...arrived.keys()].sort(),
      expected.map((s) => seriesKey(s.name, s.labels)).sort(),
    );
    for (const s of expected) {
      assert.equal(arrived.get(seriesKey(s.name, s.labels))!.length, s.points.length, s.name);
    }
  },
});

Deno.test({
  name: "the counts the decoder reads are the result's, and its percentiles within 0.271%",
  ignore,
  fn: async () => {
    const result = resultWithSlowest();
    const arrived = await exportedSeries(result);
    for (const stage of result.stages) {
      for (const label of stage.labels) {
        const where = { stage: stage.name, label: label.label };
        const ok = arrived.get(seriesKey("tailgate_requests", { ...where, outcome: "ok" }));
        assert.equal(Number(latest(ok!).asInt), label.counts.ok, `${stage.name} ${label.label}`);
        const response = latest(
          arrived.get(seriesKey("tailgate_response_time_seconds", where))!,
        );
        assert.equal(Number(response.count), label.response.count);
        for (const [percentile, us] of Object.entries(label.response.percentilesUs)) {
          const upper = upperAt(response, Number(percentile));
          const off = upper / (us / 1e6) - 1;
          assert.ok(
            off >= -1e-12 && off < OTLP_RELATIVE_ERROR,
            `${label.label} p${percentile}: ${us} µs, bucket upper bound ${upper} s`,
          );
        }
      }
    }
  },
});

Deno.test({
  name: "the slowest requests arrive as exemplars, the traced one with its trace id",
  ignore,
  fn: async () => {
    const result = resultWithSlowest();
    const label = result.stages[1].labels[0];
    const arrived = await exportedSeries(result);
    const points = arrived.get(
      seriesKey("tailgate_response_time_seconds", {
        stage: result.stages[1].name,
        label: label.label,
      }),
    )!;
    const exemplars = points.flatMap((p) => p.exemplars ?? []).map((e) => ({
      traceId: e.traceId,
      valueSeconds: e.asDouble,
      status: attrs(e.filteredAttributes).status,
    }));
    assert.deepEqual(exemplars, [
      { traceId: SLOW_TRACE, valueSeconds: label.response.maxUs / 1e6, status: "200" },
      { traceId: undefined, valueSeconds: (label.response.maxUs - 1) / 1e6, status: "0" },
    ]);
  },
});

/** The upper bound of the exponential bucket holding the value at `percentile` (HDR's rank). */
function upperAt(p: DataPoint, percentile: number): number {
  const count = Number(p.count);
  const rank = Math.max(Math.ceil((percentile / 100) * count - 1e-9), 1);
  let seen = Number(p.zeroCount ?? 0);
  if (seen >= rank) return 0;
  const counts = (p.positive?.bucketCounts ?? []).map(Number);
  for (let i = 0; i < counts.length; i++) {
    seen += counts[i];
    if (seen >= rank) return exponentialUpperBound((p.positive?.offset ?? 0) + i, p.scale!);
  }
  throw new Error(`rank ${rank} past the buckets' ${seen}`);
}
