import assert from "node:assert/strict";
import { rampData, stallSeries, timelineData } from "../../../reporters/html/timeline_data.ts";
import { errorTotal } from "../../../runner/model/request_counts.ts";
import { sampleResult } from "../../_helpers/result_fixtures.ts";
import { reportResult } from "../../_helpers/report_fixtures.ts";
import { recordedResult } from "../_recorded_results.ts";

Deno.test("timelineData() puts each interval's p50, p99, max and rates at its midpoint", () => {
  const result = reportResult();
  const data = timelineData(result)!;
  const series = (role: string) =>
    [...data.latency, ...data.throughput].find((s) => s.role === role)!.points;
  const mids = result.intervals.map((i) => (i.startMs + i.durationMs / 2) / 1000);
  assert.deepEqual(series("max").map(([x]) => x), mids);
  assert.deepEqual(
    series("max").map(([, y]) => y),
    result.intervals.map((i) => i.response.maxUs / 1000),
  );
  assert.deepEqual(
    series("p99").map(([, y]) => y),
    result.intervals.map((i) => i.response.percentilesUs["99"] / 1000),
  );
  assert.deepEqual(series("sent").map(([, y]) => y), result.intervals.map((i) => i.sentPerSec));
  assert.deepEqual(
    series("errors").map(([, y]) => y),
    result.intervals.map((i) => errorTotal(i.counts) / (i.durationMs / 1000)),
  );
  assert.ok(series("errors").some(([, y]) => (y ?? 0) > 0), "the fixture has errors");
});

Deno.test("timelineData() draws the plan's intended rate as one segment per stage, with the stage spans", () => {
  const data = timelineData(reportResult())!;
  assert.deepEqual(data.throughput.find((s) => s.role === "intended")!.points, [
    [0, 10],
    [1, 10],
    [1, 30],
    [4, 30],
    [4, 20],
    [8, 80],
  ]);
  assert.deepEqual(data.stages.map((s) => [s.name, s.startS, s.endS, s.warmup]), [
    ["warm", 0, 1, true],
    ["steady", 1, 4, false],
    ["climb", 4, 8, false],
  ]);
  const empty = reportResult();
  empty.intervals = [];
  assert.equal(timelineData(empty), undefined);
});

Deno.test("rampData() plots the ramp's intervals by intended rate; none without a ramp stage", () => {
  const result = reportResult();
  const ramp = rampData(result)!;
  const intervals = result.intervals.filter((i) => i.stageIndex === 2);
  assert.ok(intervals.length >= 3);
  const p99 = ramp.latency.find((s) => s.role === "p99")!.points;
  assert.deepEqual(
    p99.map(([x]) => x),
    intervals.map((i) => i.intendedPerSec).sort((a, b) => a - b),
  );
  assert.ok(p99.every(([x], i) => i === 0 || x >= p99[i - 1][0]), "in rate order");
  assert.equal(rampData(sampleResult()), undefined);
});

Deno.test("timelineData() ends the time axis at the last interval, so answers after the schedule show", () => {
  const drained = recordedResult({ responseMs: 2_500 });
  const last = drained.intervals.at(-1)!;
  const scheduleEndMs = drained.stages.at(-1)!.startMs + drained.stages.at(-1)!.durationMs;
  assert.ok(last.startMs >= scheduleEndMs && last.completedPerSec > 0, "the drain holds answers");
  assert.equal(timelineData(drained)!.endS, (last.startMs + last.durationMs) / 1000);
  assert.equal(timelineData(reportResult())!.endS, 8, "otherwise the last stage's end");
});

Deno.test("timelineData() draws a shard's intended rate as its share of the plan's rate", () => {
  const shard = recordedResult({ responseMs: 2, shard: { index: 1, count: 4 } });
  const intended = timelineData(shard)!.throughput.find((s) => s.role === "intended")!;
  assert.deepEqual(intended.points, [[0, 2.5], [1, 2.5], [1, 5], [3, 5]]);
  const mainSecond = shard.intervals.find((i) => i.stageIndex === 1)!;
  assert.equal(intended.points[2][1], mainSecond.intendedPerSec, "what the shard scheduled");
  assert.match(intended.label, /1\/4/);
});

Deno.test("stallSeries() marks each stall at its second's middle and max, the threshold when silent", () => {
  const result = reportResult();
  assert.deepEqual(stallSeries(result), [], "no stage stalled");
  const stage = result.stages.find((s) => !s.warmup)!;
  stage.timeDomain = {
    stalls: [{ startMs: 4_000, maxUs: 80_000, why: "slow" }, {
      startMs: 9_000,
      maxUs: 0,
      why: "nothing answered",
    }],
    stallThresholdUs: 20_000,
    bimodal: { flagged: false },
  };
  const [series] = stallSeries(result);
  assert.equal(series.role, "stall");
  assert.deepEqual(series.points, [[4.5, 80], [9.5, 20]]);
  assert.ok(
    timelineData(result)!.latency.some((s) => s.role === "stall"),
    "drawn with the latency",
  );
});

Deno.test("timelineData() adds p99 of the time to first byte only for a result that has it", () => {
  const roles = (r: ReturnType<typeof sampleResult>) => timelineData(r)!.latency.map((s) => s.role);
  assert.ok(!roles(sampleResult()).includes("ttfbP99"));
  const result = sampleResult({}, { firstByte: true });
  const ttfb = timelineData(result)!.latency.find((s) => s.role === "ttfbP99")!;
  assert.equal(ttfb.label, "p99 time to first byte");
  assert.deepEqual(
    ttfb.points.map(([, y]) => y),
    result.intervals.map((i) => i.ttfb === undefined ? null : i.ttfb.percentilesUs["99"] / 1000),
  );
  assert.ok(ttfb.points.some(([, y]) => y === 1), "the fixture's first bytes come at 1 ms");
});
