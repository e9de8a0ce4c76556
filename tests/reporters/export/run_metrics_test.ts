import assert from "node:assert/strict";
import { createHistogram, decodeHistogram, toEncodedHistogram } from "../../../runner/hdr/mod.ts";
import { exponentialIndex } from "../../../reporters/export/otlp_buckets.ts";
import type { RunResult } from "../../../runner/model/mod.ts";
import type {
  CounterSeries,
  GaugeSeries,
  HistogramSeries,
  MetricSeries,
} from "../../../reporters/export/metric_batch.ts";
import {
  BATCH_SCALE,
  MAX_POINTS,
  MAX_STATUSES,
  runMetricParts,
  runMetrics,
} from "../../../reporters/export/run_metrics.ts";
import { sampleResult } from "../../_helpers/result_fixtures.ts";

const find = <T extends MetricSeries>(
  series: MetricSeries[],
  name: string,
  labels: Record<string, string>,
) =>
  series.find((s) =>
    s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v)
  ) as T | undefined;

Deno.test("runMetrics counts every stage × label's requests exactly as the result does", () => {
  const result = sampleResult();
  const { series } = runMetrics(result);
  for (const stage of result.stages) {
    for (const label of stage.labels) {
      const where = { stage: stage.name, label: label.label };
      const ok = find<CounterSeries>(series, "tailgate_requests", { ...where, outcome: "ok" });
      assert.equal(ok?.points.at(-1)?.value, label.counts.ok, `${stage.name} ${label.label}`);
      for (const [kind, n] of Object.entries(label.counts.errors)) {
        const errors = find<CounterSeries>(series, "tailgate_requests", {
          ...where,
          outcome: kind,
        });
        assert.equal(errors?.points.at(-1)?.value, n, `${kind} in ${stage.name} ${label.label}`);
      }
      for (const [status, n] of Object.entries(label.counts.statusCodes)) {
        const responses = find<CounterSeries>(series, "tailgate_responses", { ...where, status });
        assert.equal(responses?.points.at(-1)?.value, n);
      }
      const response = find<HistogramSeries>(series, "tailgate_response_time_seconds", where)!;
      const last = response.points.at(-1)!;
      assert.equal(last.count, label.response.count);
      assert.equal(last.buckets.reduce((a, b) => a + b.count, 0), label.response.count);
      assert.equal(last.maxSeconds, label.response.maxUs / 1e6);
      assert.equal(response.startMs, Date.parse(result.run.startedAt) + stage.startMs);
    }
  }
});

Deno.test("runMetrics's points are cumulative, one per interval end, never decreasing", () => {
  const result = sampleResult();
  const { series } = runMetrics(result);
  const t0 = Date.parse(result.run.startedAt);
  const main = result.stages[1];
  const intervals = result.intervals.filter((i) => i.stageIndex === main.index);
  const ok = find<CounterSeries>(series, "tailgate_requests", {
    stage: main.name,
    label: "GET /a",
    outcome: "ok",
  })!;
  assert.deepEqual(
    ok.points.map((p) => p.timeMs),
    intervals.map((i) => t0 + i.startMs + i.durationMs),
  );
  let running = 0;
  intervals.forEach((interval, i) => {
    running += interval.labels.find((l) => l.label === "GET /a")?.counts.ok ?? 0;
    assert.equal(ok.points[i].value, running);
  });
  const response = find<HistogramSeries>(series, "tailgate_response_time_seconds", {
    stage: main.name,
    label: "GET /a",
  })!;
  for (let i = 1; i < response.points.length; i++) {
    assert.ok(response.points[i].count >= response.points[i - 1].count);
  }
  const rate = find<GaugeSeries>(series, "tailgate_intended_rate", { stage: main.name })!;
  assert.deepEqual(rate.points.map((p) => p.value), intervals.map((i) => i.intendedPerSec));
});

Deno.test("runMetrics names the plan, run, commit and shard once, in the resource", () => {
  const result = sampleResult();
  const shard: RunResult = {
    ...result,
    run: { ...result.run, id: "901-2", shard: { index: 0, count: 2 } },
    environment: { ...result.environment, gitSha: "abc1234" },
  };
  assert.deepEqual(runMetrics(shard).resource, {
    plan: "shop",
    run_id: "901-2",
    commit: "abc1234",
    shard: "1/2",
  });
  assert.deepEqual(runMetrics(result).resource, { plan: "shop" });
});

Deno.test("runMetrics attaches the slowest requests to the response time, at their intended time", () => {
  const result = sampleResult();
  const t0 = Date.parse(result.run.startedAt);
  const label = result.stages[1].labels[0];
  label.slowest = [
    { traceId: "a".repeat(32), intendedMs: 1500, responseUs: 9000, status: 200 },
    { traceId: "b".repeat(32), intendedMs: 1200, responseUs: 8000, status: 500 },
  ];
  label.exemplars = [{ ...label.slowest[0], percentile: "99" }];
  const response = find<HistogramSeries>(
    runMetrics(result).series,
    "tailgate_response_time_seconds",
    {
      stage: result.stages[1].name,
      label: label.label,
    },
  )!;
  assert.deepEqual(response.exemplars, [
    { traceId: "b".repeat(32), valueSeconds: 0.008, timeMs: t0 + 1200, status: 500 },
    { traceId: "a".repeat(32), valueSeconds: 0.009, timeMs: t0 + 1500, status: 200 },
  ]);
  const service = find<HistogramSeries>(
    runMetrics(result).series,
    "tailgate_service_time_seconds",
    {
      stage: result.stages[1].name,
      label: label.label,
    },
  )!;
  assert.deepEqual(service.exemplars, []);
});

Deno.test("runMetrics names at most MAX_STATUSES statuses and counts the rest as other", () => {
  const result = sampleResult();
  const stage = result.stages[1];
  const interval = result.intervals.find((i) => i.stageIndex === stage.index)!;
  const codes: Record<string, number> = {};
  for (let i = 0; i < 30; i++) codes[String(400 + i)] = i + 1;
  interval.labels[0].counts.statusCodes = codes;
  const responses = runMetrics(result).series.filter((s) =>
    s.name === "tailgate_responses" && s.labels.stage === stage.name &&
    s.labels.label === interval.labels[0].label
  ) as CounterSeries[];
  assert.equal(responses.length, MAX_STATUSES);
  const other = responses.find((s) => s.labels.status === "other")!;
  // The 11 rarest (1 + … + 11) are other; the 19 most frequent keep their names.
  assert.equal(other.points[0].value, 66);
  assert.ok(responses.some((s) => s.labels.status === "429"));
  assert.ok(!responses.some((s) => s.labels.status === "400"));
});

Deno.test("runMetrics keeps a long stage to MAX_POINTS points, the last at the stage's end", () => {
  const result = sampleResult();
  const stage = result.stages[1];
  const [one] = result.intervals.filter((i) => i.stageIndex === stage.index);
  const n = MAX_POINTS * 2 + 1;
  result.intervals = Array.from(
    { length: n },
    (_, i) => ({ ...one, startMs: i * 1000, durationMs: 1000 }),
  );
  const ok = find<CounterSeries>(runMetrics(result).series, "tailgate_requests", {
    stage: stage.name,
    label: one.labels[0].label,
    outcome: "ok",
  })!;
  assert.ok(ok.points.length <= MAX_POINTS, `${ok.points.length} points`);
  assert.equal(
    ok.points.at(-1)!.value,
    one.labels[0].counts.ok * n,
    "every interval still counted",
  );
  assert.equal(ok.points.at(-1)!.timeMs, Date.parse(result.run.startedAt) + n * 1000);
});

Deno.test("runMetrics sends the run's send lag as one histogram at the run's end", () => {
  const result = sampleResult();
  const lag = find<HistogramSeries>(runMetrics(result).series, "tailgate_send_lag_seconds", {})!;
  assert.equal(lag.points.length, 1);
  assert.equal(lag.points[0].count, result.health.sendLag.count);
  assert.equal(
    lag.points[0].timeMs,
    Date.parse(result.run.startedAt) + result.run.durationMs,
  );
  const hdr = decodeHistogram(result.health.sendLag.hdr);
  assert.equal(lag.points[0].buckets.length, [...hdr.recordedValues()].length);
});

Deno.test("runMetrics merges HDR buckets within scale 5's, one merged bucket each, counts kept", () => {
  const h = createHistogram();
  // 2,000 distinct values from 100 us to 2 s: about 1,000 HDR buckets a doubling.
  for (let i = 0; i < 2_000; i++) h.recordValue(Math.round(100 * 20_000 ** (i / 1999)));
  const result = sampleResult();
  result.health.sendLag = toEncodedHistogram(h);
  const lag = find<HistogramSeries>(runMetrics(result).series, "tailgate_send_lag_seconds", {})!;
  const { buckets, count } = lag.points[0];
  assert.equal(buckets.reduce((a, b) => a + b.count, 0), 2_000);
  assert.equal(count, 2_000);
  const indexes = buckets.map((b) => exponentialIndex(b.highestUs / 1e6, BATCH_SCALE));
  for (let i = 1; i < indexes.length; i++) assert.ok(indexes[i] > indexes[i - 1], `bucket ${i}`);
  // log2(20,000) doublings at 32 buckets each, at most.
  assert.ok(buckets.length <= Math.ceil(Math.log2(20_000) * 32) + 1, `${buckets.length} buckets`);
  assert.ok([...h.recordedValues()].length > 4 * buckets.length);
});

Deno.test("runMetricParts makes one part per stage × label, then each stage's rates", () => {
  const result = sampleResult();
  const parts = [...runMetricParts(result)];
  const labels = result.stages.reduce((n, s) => n + s.labels.length, 0);
  assert.equal(parts.length, labels + result.stages.length + 1);
  assert.deepEqual(parts.flatMap((p) => p.series), runMetrics(result).series);
  assert.ok(parts[0].series.every((s) => s.labels.label === result.stages[0].labels[0].label));
});
