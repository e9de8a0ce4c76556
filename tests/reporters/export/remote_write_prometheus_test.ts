/**
 * The remote-write encoder against a real Prometheus (the distribution's package: Debian 12's
 * 2.42 here, Ubuntu 24.04's in CI, installed by .ci/install-tools): what it stores from
 * tailgate's bodies answers PromQL with tailgate's own counts exactly and its percentiles within
 * one bucket, returns the exemplars' trace ids, and refuses native histograms where they are not
 * enabled in the words {@linkcode refusesNativeHistograms} recognises.
 */
import assert from "node:assert/strict";
import { createHistogram, type Histogram } from "../../../runner/hdr/mod.ts";
import type { HistogramPoint, MetricBatch } from "../../../reporters/export/metric_batch.ts";
import {
  encodeRemoteWrite,
  type HistogramForm,
  refusesNativeHistograms,
  REMOTE_WRITE_HEADERS,
} from "../../../reporters/export/remote_write.ts";
import {
  bucketIndex,
  bucketTop,
  CLASSIC_BOUNDARY_RATIO,
  CLASSIC_SCHEMA,
  NATIVE_BUCKET_RATIO,
  NATIVE_SCHEMA,
} from "../../../reporters/export/remote_write_buckets.ts";
import {
  ignoreWithoutPrometheus,
  type Prometheus,
  startPrometheus,
} from "../../_helpers/prometheus.ts";

const INTERVALS = 3;
const PER_INTERVAL = 1_000;
const TRACE_IDS = ["1".repeat(32), "2".repeat(32), "3".repeat(32)];

/** Known values, 80 µs to 400 ms spread evenly on a log scale (golden-ratio sequence). */
function valueUs(i: number): number {
  const u = (i * 0.6180339887498949) % 1;
  return Math.round(80 * 5_000 ** u);
}

/** A run's worth of series, ending at `endMs` (Prometheus takes recent samples only). */
function run(runId: string, endMs: number): { batch: MetricBatch; whole: Histogram } {
  const whole = createHistogram();
  const points: HistogramPoint[] = [];
  const times = Array.from({ length: INTERVALS }, (_, k) => endMs - (INTERVALS - 1 - k) * 10_000);
  for (const [k, timeMs] of times.entries()) {
    for (let i = 0; i < PER_INTERVAL; i++) whole.recordValue(valueUs(k * PER_INTERVAL + i));
    points.push({
      timeMs,
      count: whole.totalCount,
      sumSeconds: (whole.mean * whole.totalCount) / 1e6,
      minSeconds: whole.minNonZeroValue / 1e6,
      maxSeconds: whole.maxValue / 1e6,
      buckets: [...whole.recordedValues()].map((r) => ({
        lowestUs: r.lowestUs,
        highestUs: r.valueUs,
        count: r.count,
      })),
    });
  }
  const startMs = times[0] - 10_000;
  const labels = { stage: "steady", label: "get /" };
  const batch: MetricBatch = {
    resource: { plan: "remote-write-proof", run_id: runId, commit: "abc1234" },
    series: [
      {
        kind: "counter",
        name: "tailgate_requests",
        help: "Requests completed, by outcome.",
        unit: "{request}",
        labels: { ...labels, outcome: "ok" },
        startMs,
        points: points.map((p) => ({ timeMs: p.timeMs, value: p.count })),
      },
      {
        kind: "histogram",
        name: "tailgate_response_time_seconds",
        help: "Response time.",
        unit: "s",
        labels,
        startMs,
        points,
        exemplars: [
          { quantile: 99.9, at: 0 },
          { quantile: 99, at: 1 },
          { quantile: 90, at: 2 },
        ].map(({ quantile, at }, n) => ({
          traceId: TRACE_IDS[n],
          valueSeconds: whole.getValueAtPercentile(quantile) / 1e6,
          timeMs: times[at] - 5_000,
          status: 200,
        })),
      },
    ],
  };
  return { batch, whole };
}

async function send(prom: Prometheus, batch: MetricBatch, form: HistogramForm): Promise<void> {
  const answer = await prom.write(encodeRemoteWrite(batch, { histograms: form }), {
    ...REMOTE_WRITE_HEADERS,
  });
  assert.equal(answer.status, 204, `${answer.body}\n${prom.log()}`);
}

/** `got` lies in the bucket of `schema` that holds `wantSeconds` (both edges by a hair). */
function assertSameBucket(got: number, wantSeconds: number, schema: number, what: string): void {
  const index = bucketIndex(wantSeconds, schema);
  const [bottom, top] = [bucketTop(index - 1, schema), bucketTop(index, schema)];
  assert.ok(
    got >= bottom * (1 - 1e-12) && got <= top * (1 + 1e-12),
    `${what}: PromQL ${got} s, tailgate ${wantSeconds} s, bucket (${bottom}, ${top}]`,
  );
}

async function withPrometheus(features: string[], fn: (p: Prometheus) => Promise<void>) {
  const prom = await startPrometheus(features);
  try {
    await fn(prom);
  } finally {
    await prom.stop();
  }
}

const QUANTILES = [0.5, 0.9, 0.99, 0.999];

Deno.test({
  name: "Prometheus reads tailgate's native histograms: exact counts, p99 in its bucket, exemplars",
  ignore: ignoreWithoutPrometheus(),
  fn: () =>
    withPrometheus(["native-histograms", "exemplar-storage"], async (prom) => {
      const endMs = Date.now() - 5_000;
      const { batch, whole } = run("native-1", endMs);
      await send(prom, batch, "native");
      const sel = '{run_id="native-1",stage="steady",label="get /"}';
      const [requests] = await prom.query(`tailgate_requests_total${sel}`, endMs);
      assert.equal(requests.value, INTERVALS * PER_INTERVAL);
      const [count] = await prom.query(
        `histogram_count(tailgate_response_time_seconds${sel})`,
        endMs,
      );
      assert.equal(count.value, whole.totalCount);
      for (const q of QUANTILES) {
        const promql = `histogram_quantile(${q}, tailgate_response_time_seconds${sel})`;
        const [got] = await prom.query(promql, endMs);
        const want = whole.getValueAtPercentile(q * 100) / 1e6;
        assertSameBucket(got.value!, want, NATIVE_SCHEMA, `native p${q * 100}`);
        assert.ok(Math.abs(got.value! - want) / want <= NATIVE_BUCKET_RATIO - 1);
      }
      const exemplars = await prom.queryExemplars(
        `tailgate_response_time_seconds${sel}`,
        endMs - 60_000,
        endMs,
      );
      assert.deepEqual(exemplars.map((e) => e.labels.trace_id).sort(), TRACE_IDS);
    }),
});

Deno.test({
  name: "Prometheus reads tailgate's classic buckets: exact counts, p99 in its bucket, exemplars",
  ignore: ignoreWithoutPrometheus(),
  fn: () =>
    withPrometheus(["exemplar-storage"], async (prom) => {
      const endMs = Date.now() - 5_000;
      const { batch, whole } = run("classic-1", endMs);
      await send(prom, batch, "classic");
      const sel = '{run_id="classic-1",stage="steady",label="get /"}';
      const [count] = await prom.query(`tailgate_response_time_seconds_count${sel}`, endMs);
      assert.equal(count.value, whole.totalCount);
      const [inf] = await prom.query(`tailgate_response_time_seconds_bucket{le="+Inf"}`, endMs);
      assert.equal(inf.value, whole.totalCount);
      for (const q of QUANTILES) {
        const promql = `histogram_quantile(${q}, tailgate_response_time_seconds_bucket${sel})`;
        const [got] = await prom.query(promql, endMs);
        const want = whole.getValueAtPercentile(q * 100) / 1e6;
        assertSameBucket(got.value!, want, CLASSIC_SCHEMA, `classic p${q * 100}`);
        assert.ok(Math.abs(got.value! - want) / want <= CLASSIC_BOUNDARY_RATIO - 1);
      }
      const exemplars = await prom.queryExemplars(
        `tailgate_response_time_seconds_bucket${sel}`,
        endMs - 60_000,
        endMs,
      );
      assert.deepEqual(exemplars.map((e) => e.labels.trace_id).sort(), TRACE_IDS);
      for (const e of exemplars) {
        assertSameBucket(Number(e.seriesLabels.le), e.value, CLASSIC_SCHEMA, "exemplar's le");
      }
    }),
});

Deno.test({
  name: "Prometheus without native histograms refuses them as detected, and takes classic ones",
  ignore: ignoreWithoutPrometheus(),
  fn: () =>
    withPrometheus([], async (prom) => {
      const endMs = Date.now() - 5_000;
      const { batch, whole } = run("fallback-1", endMs);
      const answer = await prom.write(encodeRemoteWrite(batch, { histograms: "native" }), {
        ...REMOTE_WRITE_HEADERS,
      });
      assert.equal(
        refusesNativeHistograms(answer.status, answer.body),
        true,
        JSON.stringify(answer),
      );
      // The refusal rolls back the whole request: the counter did not land either.
      assert.deepEqual(await prom.query('tailgate_requests_total{run_id="fallback-1"}', endMs), []);
      await send(prom, batch, "classic");
      const [count] = await prom.query(
        'tailgate_response_time_seconds_count{run_id="fallback-1"}',
        endMs,
      );
      assert.equal(count.value, whole.totalCount);
    }),
});
