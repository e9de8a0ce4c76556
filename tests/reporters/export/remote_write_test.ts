import assert from "node:assert/strict";
import { decode } from "../../../runner/protobuf/mod.ts";
import { createHistogram } from "../../../runner/hdr/mod.ts";
import type {
  HistogramPoint,
  HistogramSeries,
  MetricBatch,
} from "../../../reporters/export/metric_batch.ts";
import {
  encodeRemoteWrite,
  refusesNativeHistograms,
  REMOTE_WRITE_HEADERS,
  writeRequest,
} from "../../../reporters/export/remote_write.ts";
import { snappyUncompress } from "../../../reporters/export/_snappy.ts";
import { remoteWriteRoot } from "../../../reporters/export/remote_write_schema.ts";
import {
  bucketIndex,
  bucketTop,
  CLASSIC_LOWEST_INDEX,
  classicRange,
  NATIVE_SCHEMA,
} from "../../../reporters/export/remote_write_buckets.ts";

function point(timeMs: number, valuesUs: number[]): HistogramPoint {
  const h = createHistogram();
  for (const v of valuesUs) h.recordValue(v);
  return {
    timeMs,
    count: h.totalCount,
    sumSeconds: (h.mean * h.totalCount) / 1e6,
    minSeconds: h.minNonZeroValue / 1e6,
    maxSeconds: h.maxValue / 1e6,
    buckets: [...h.recordedValues()].map((r) => ({
      lowestUs: r.lowestUs,
      highestUs: r.valueUs,
      count: r.count,
    })),
  };
}

function histogram(points: HistogramPoint[]): HistogramSeries {
  return {
    kind: "histogram",
    name: "tailgate_response_time_seconds",
    help: "Response time.",
    unit: "s",
    labels: { stage: "main", label: "get" },
    startMs: 1_000,
    points,
    exemplars: [
      { traceId: "b".repeat(32), valueSeconds: 0.09, timeMs: 2_500, status: 200 },
      { traceId: "a".repeat(32), valueSeconds: 0.0011, timeMs: 1_500, status: 200 },
    ],
  };
}

const batch: MetricBatch = {
  resource: { plan: "demo", run_id: "r1", commit: "", shard: "1/2" },
  series: [
    {
      kind: "counter",
      name: "tailgate_requests",
      help: "Requests.",
      unit: "{request}",
      labels: { stage: "main", outcome: "ok", plan: "own" },
      startMs: 1_000,
      points: [{ timeMs: 3_000, value: 7 }, { timeMs: 2_000, value: 4 }],
    },
    histogram([point(3_000, [1_000, 1_000, 2_000, 90_000]), point(2_000, [1_000, 2_000])]),
  ],
};

type Decoded = {
  timeseries: Array<{
    labels: Array<{ name: string; value: string }>;
    samples?: Array<{ value?: number; timestamp: string }>;
    exemplars?: Array<{ labels?: Array<{ name: string; value: string }>; value: number }>;
    histograms?: Array<Record<string, unknown>>;
  }>;
};

function roundTrip(form: "native" | "classic"): Decoded {
  const body = encodeRemoteWrite(batch, { histograms: form });
  return decode(remoteWriteRoot(), "prometheus.WriteRequest", snappyUncompress(body)) as Decoded;
}

function labelsOf(series: Decoded["timeseries"][number]): Record<string, string> {
  return Object.fromEntries(series.labels.map((l) => [l.name, l.value]));
}

Deno.test("a counter is <name>_total with sorted labels, the resource's under its own", () => {
  const [counter] = roundTrip("native").timeseries;
  assert.deepEqual(counter.labels.map((l) => l.name), [
    "__name__",
    "outcome",
    "plan",
    "run_id",
    "shard",
    "stage",
  ]);
  assert.deepEqual(labelsOf(counter), {
    __name__: "tailgate_requests_total",
    outcome: "ok",
    plan: "own",
    run_id: "r1",
    shard: "1/2",
    stage: "main",
  });
  assert.deepEqual(counter.samples, [
    { value: 4, timestamp: "2000" },
    { value: 7, timestamp: "3000" },
  ]);
});

Deno.test("classic buckets run from below the smallest value to the first above the largest", () => {
  const series = roundTrip("classic").timeseries.slice(1);
  const buckets = series.filter((s) => labelsOf(s).__name__.endsWith("_bucket"));
  const les = buckets.map((s) => labelsOf(s).le);
  // 1 ms is in bucket ceil(4 log2 0.001) = -39; 90 ms in -13.
  assert.equal(les.length, (-13) - (-40) + 1 + 1);
  assert.equal(les[0], String(2 ** (-40 / 4)));
  assert.equal(les.at(-2), String(2 ** (-13 / 4)));
  assert.equal(les.at(-1), "+Inf");
  const at = (le: string) =>
    buckets.find((s) => labelsOf(s).le === le)!.samples!.map((x) => x.value ?? 0);
  assert.deepEqual(at(les[0]), [0, 0]);
  assert.deepEqual(at(String(2 ** (-39 / 4))), [1, 2]);
  assert.deepEqual(at(String(2 ** (-14 / 4))), [2, 3]);
  assert.deepEqual(at("+Inf"), [2, 4]);
  const count = series.find((s) => labelsOf(s).__name__ === "tailgate_response_time_seconds_count");
  assert.deepEqual(count?.samples?.map((s) => s.value), [2, 4]);
  const sum = series.find((s) => labelsOf(s).__name__ === "tailgate_response_time_seconds_sum");
  assert.ok(Math.abs((sum?.samples?.[1].value ?? 0) - 0.094) < 0.0001);
});

Deno.test("a classic exemplar rides the bucket whose le holds its value, in time order", () => {
  const series = roundTrip("classic").timeseries;
  const withExemplars = series.filter((s) => (s.exemplars ?? []).length > 0);
  assert.deepEqual(
    withExemplars.map((s) => [labelsOf(s).le, s.exemplars!.map((e) => e.labels![0].value[0])]),
    [[String(2 ** (-39 / 4)), ["a"]], [String(2 ** (-13 / 4)), ["b"]]],
  );
});

Deno.test("a native histogram's spans and deltas hold every HDR bucket by its highest value", () => {
  const [, hist, exemplars] = roundTrip("native").timeseries;
  assert.equal(labelsOf(hist).__name__, "tailgate_response_time_seconds");
  const last = hist.histograms![1] as {
    countInt: string;
    schema: number;
    zeroCountInt: string;
    positiveSpans: Array<{ offset?: number; length: number }>;
    positiveDeltas: string[];
  };
  assert.equal(last.schema, NATIVE_SCHEMA);
  assert.equal(last.countInt, "4");
  const indexes: number[] = [];
  let index = 0;
  for (const span of last.positiveSpans) {
    index += span.offset ?? 0; // the first from 0, the others from the last span's end
    for (let k = 0; k < span.length; k++) indexes.push(index++);
  }
  let count = 0;
  const counts = last.positiveDeltas.map((d) => count += Number(d));
  assert.deepEqual(
    indexes,
    [1_000, 2_000, 90_000].map((us) => bucketIndex(us / 1e6, NATIVE_SCHEMA)),
  );
  assert.deepEqual(counts, [2, 1, 1]);
  assert.deepEqual(exemplars.histograms ?? [], []);
  assert.deepEqual(labelsOf(exemplars), labelsOf(hist));
  assert.deepEqual(exemplars.exemplars!.map((e) => e.value), [0.0011, 0.09]);
});

Deno.test("an empty label value and a series without points are left out; bad characters become _", () => {
  const plain = writeRequest({
    resource: { "service.name": "x", commit: "" },
    series: [{
      kind: "gauge",
      name: "tailgate_rate",
      help: "",
      unit: "{request}/s",
      labels: {},
      startMs: 0,
      points: [{ timeMs: 1, value: 2 }],
    }, {
      kind: "counter",
      name: "tailgate_requests",
      help: "",
      unit: "{request}",
      labels: {},
      startMs: 0,
      points: [],
    }],
  }, { histograms: "classic" });
  assert.equal(plain.timeseries.length, 1, "the counter without points is left out");
  assert.deepEqual(plain.timeseries[0].labels, [
    { name: "__name__", value: "tailgate_rate" },
    { name: "service_name", value: "x" },
  ]);
});

Deno.test("the classic boundaries never pass 106 and +Inf over the trackable range", () => {
  const range = classicRange([[{ lowestUs: 1, highestUs: 1, count: 1 }, {
    lowestUs: 3_600_000_000,
    highestUs: 3_600_809_983,
    count: 1,
  }]]);
  assert.deepEqual(range, { low: CLASSIC_LOWEST_INDEX, high: 48 });
  assert.ok(
    bucketTop(CLASSIC_LOWEST_INDEX, 2) > 50e-6 && bucketTop(CLASSIC_LOWEST_INDEX, 2) < 52e-6,
  );
});

Deno.test("bucket indexes follow Prometheus: the top is inside, the bottom outside", () => {
  assert.equal(bucketIndex(1, 3), 0);
  assert.equal(bucketIndex(1.0000001, 3), 1);
  assert.equal(bucketIndex(bucketTop(5, 3), 3), 5);
  assert.equal(bucketIndex(bucketTop(5, 3) * 1.0000001, 3), 6);
  assert.equal(bucketIndex(0.25, 2), -8);
});

Deno.test("a 500 saying native histograms are disabled is a refusal; other answers are not", () => {
  assert.equal(refusesNativeHistograms(500, "native histograms are disabled\n"), true);
  assert.equal(refusesNativeHistograms(400, "Native histograms are disabled"), true);
  assert.equal(refusesNativeHistograms(500, "too many open files"), false);
  assert.equal(refusesNativeHistograms(204, ""), false);
  assert.deepEqual(REMOTE_WRITE_HEADERS, {
    "Content-Encoding": "snappy",
    "Content-Type": "application/x-protobuf",
    "X-Prometheus-Remote-Write-Version": "0.1.0",
  });
});

Deno.test("an exemplar without a finite value is left out; a bucket of one throws", () => {
  const series = histogram([point(3_000, [1_000])]);
  series.exemplars.push({ valueSeconds: Infinity, timeMs: 2_000, status: 0 });
  const plain = writeRequest({ resource: {}, series: [series] }, { histograms: "native" });
  assert.equal(plain.timeseries[1].exemplars?.length, 2);
  const classic = writeRequest({ resource: {}, series: [series] }, { histograms: "classic" });
  assert.equal(classic.timeseries.flatMap((s) => s.exemplars ?? []).length, 2);
  assert.throws(() => bucketIndex(Infinity, 3), RangeError);
  assert.throws(() => bucketIndex(0, 3), RangeError);
});
