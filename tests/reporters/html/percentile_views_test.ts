import assert from "node:assert/strict";
import { percentileViews } from "../../../reporters/html/percentile_views.ts";
import { createHistogram } from "../../../runner/hdr/mod.ts";
import { decodeHistogram } from "../../../runner/hdr/hdr_codec.ts";
import { reportResult } from "../../_helpers/report_fixtures.ts";

Deno.test("percentileViews() shows the measured stages merged first, then each stage, warmup last", () => {
  const { views } = percentileViews(reportResult());
  assert.deepEqual(views.map((v) => [v.title, v.stageIndexes]), [
    ["All measured stages (warmup excluded)", [1, 2]],
    ["Stage 2: steady", [1]],
    ["Stage 3: climb", [2]],
    ["Stage 1: warm (warmup)", [0]],
  ]);
});

Deno.test("percentileViews() merges the stages' histograms exactly: the merged curve ends at their max", () => {
  const result = reportResult();
  const merged = createHistogram();
  for (const s of result.stages.filter((s) => !s.warmup)) {
    merged.add(decodeHistogram(s.service.hdr));
  }
  const { axis, views } = percentileViews(result);
  const service = views[0].series.find((s) => s.role === "service")!;
  assert.deepEqual(service.points.at(-1), [axis.maxX, merged.maxValue / 1000]);
  assert.equal(service.points[0][1], merged.getValueAtPercentile(0) / 1000);
});

Deno.test("percentileViews() marks latency SLOs at their percentile and bound with the verdict's status", () => {
  const { axis, views } = percentileViews(reportResult());
  assert.deepEqual(views[0].slos, [
    { name: "p50 < 5ms", status: "pass", x: 2, boundMs: 5 },
    { name: "p90 < 1ms", status: "fail", x: 10, boundMs: 1 },
    { name: "max < 1ms", status: "fail", x: axis.maxX, boundMs: 1 },
  ]);
  assert.deepEqual(views[3].slos, [], "the SLOs judge no warmup stage");
  const unjudged = reportResult();
  unjudged.verdicts = [];
  assert.ok(percentileViews(unjudged).views[0].slos.every((m) => m.status === "not judged"));
});

Deno.test("percentileViews() widens the axis to an SLO's finer percentile rather than drawing it at max", () => {
  const result = reportResult();
  result.plan.slos.push({ text: "p99.999 < 10ms", line: 90 }, {
    text: "p99.99999 < 10ms",
    line: 91,
  });
  const { axis, views } = percentileViews(result);
  const marker = views[0].slos.find((m) => m.name === "p99.999 < 10ms")!;
  assert.equal(marker.x, 100_000);
  assert.ok(marker.x < axis.maxX, "left of the max tick");
  assert.equal(axis.ticks.find((t) => t.x === marker.x)?.label, "99.999%");
  assert.ok(views[0].slos.every((m) => m.x <= axis.maxX), "no marker past the chart's edge");
});
