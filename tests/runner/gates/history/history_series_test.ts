import assert from "node:assert/strict";
import { historySeries } from "../../../../runner/gates/history/history_series.ts";
import { parseSlo } from "../../../../runner/plan/mod.ts";
import type { Slo } from "../../../../runner/plan/types.ts";
import { entryAt, stageAt } from "../../../_helpers/history_fixtures.ts";

function slo(text: string): Slo {
  const parsed = parseSlo(text);
  if (!parsed.ok) throw new Error(`bad SLO ${text}: ${parsed.problems[0].message}`);
  return { ...parsed.value, line: 1 };
}

Deno.test("historySeries follows six metrics per measured stage, and per label only where several", () => {
  const entries = [0, 1, 2].map((i) =>
    entryAt(i, [
      stageAt(1000, { index: 0, name: "warm", warmup: true }),
      stageAt(2000, { index: 1, name: "steady", labels: ["GET /a", "POST /b"] }),
      stageAt(3000, { index: 2, name: "single", labels: ["GET /a"] }),
    ])
  );
  const series = historySeries(entries);
  const places = [...new Set(series.map((s) => `${s.stage}|${s.label ?? ""}`))];
  assert.deepEqual(places, ["steady|", "steady|GET /a", "steady|POST /b", "single|"]);
  assert.equal(series.length, 4 * 6);
  const p99 = series.find((s) => s.stage === "steady" && !s.label && s.metric === "p99")!;
  assert.equal(p99.unit, "us");
  // Values spread evenly over ±10% of 2 ms: the 99th percentile is near 2.2 ms.
  for (const v of p99.values) assert.ok(v! > 2150 && v! < 2220, `p99 ${v}`);
  const throughput = series.find((s) => s.stage === "steady" && s.metric === "throughput")!;
  assert.deepEqual(throughput.values, [100, 100, 100]);
  assert.equal(throughput.unit, "per_sec");
});

Deno.test("historySeries leaves a gap where a run lacks the stage, and where nothing completed", () => {
  const entries = [
    entryAt(0, [stageAt(1000, { name: "steady" })]),
    entryAt(1, [stageAt(1000, { name: "other" })]),
    entryAt(2, [{
      ...stageAt(1000, { name: "steady" }),
      counts: stageAt(1).counts,
      durationMs: 0,
    }]),
    entryAt(3, [stageAt(1000, { name: "steady", failed: 250 })]),
  ];
  entries[2].stages[0].counts = { ...entries[2].stages[0].counts, completed: 0, ok: 0 };
  const series = historySeries(entries);
  const errors = series.find((s) => s.stage === "steady" && s.metric === "error_rate")!;
  assert.deepEqual(errors.values, [0, null, null, 0.25]);
  const p50 = series.find((s) => s.stage === "steady" && s.metric === "p50")!;
  assert.equal(p50.values[1], null);
  assert.equal(p50.values[2], null);
});

Deno.test("historySeries draws the tightest SLO bound that binds the stage, label and metric", () => {
  const entries = [0, 1].map((i) =>
    entryAt(i, [
      stageAt(1000, { index: 0, name: "slow", ratePerSec: 100, labels: ["a", "b"] }),
      stageAt(1000, { index: 1, name: "fast", ratePerSec: 500 }),
    ])
  );
  const series = historySeries(entries, [
    slo("p99 < 20ms"),
    slo("p99 < 10ms at 100/s"),
    slo('p99.9 < 50ms for "a"'),
    slo("error_rate < 1%"),
    slo("throughput > 90/s at 100/s"),
    slo("p99 < 5ms over 10s"),
    slo("mean < 1ms"),
  ]);
  const bound = (stage: string, metric: string, label?: string) =>
    series.find((s) => s.stage === stage && s.metric === metric && s.label === label)?.bound;
  assert.deepEqual(bound("slow", "p99"), { value: 10_000, slo: "p99 < 10ms at 100/s" });
  assert.deepEqual(bound("fast", "p99"), { value: 20_000, slo: "p99 < 20ms" });
  assert.deepEqual(bound("slow", "p99.9", "a"), { value: 50_000, slo: 'p99.9 < 50ms for "a"' });
  assert.equal(bound("slow", "p99.9"), undefined);
  assert.equal(bound("slow", "p99.9", "b"), undefined);
  assert.deepEqual(bound("fast", "error_rate"), { value: 0.01, slo: "error_rate < 1%" });
  assert.deepEqual(bound("slow", "throughput"), { value: 90, slo: "throughput > 90/s at 100/s" });
  assert.equal(bound("fast", "throughput"), undefined);
  assert.equal(bound("fast", "p50"), undefined);
});

Deno.test("historySeries leaves out a percentile the run's requests cannot support", () => {
  const entries = [
    entryAt(0, [stageAt(1000, { ratePerSec: 100, durationMs: 10_000 })]), // 1000 requests
    entryAt(1, [stageAt(1000, { ratePerSec: 1000, durationMs: 10_000 })]), // 10 000 requests
  ];
  const series = historySeries(entries);
  const values = (metric: string) => series.find((s) => s.metric === metric)!.values;
  // p99.9 needs 10 requests beyond it: 10 000 of them, not 1000 (whose p99.9 is their maximum).
  assert.equal(values("p99.9")[0], null);
  assert.ok(values("p99.9")[1]! > 0);
  assert.ok(values("p99")[0]! > 0 && values("p99")[1]! > 0);
});

Deno.test("historySeries leaves a contended run's latencies out, and keeps its rates", () => {
  const entries = [0, 1, 2].map((i) => entryAt(i, [stageAt(1000, { name: "steady" })]));
  entries[1] = { ...entries[1], notBaseline: ["contended"] };
  entries[2] = { ...entries[2], notBaseline: ["slo_failed"] };
  const series = historySeries(entries);
  const p50 = series.find((s) => s.metric === "p50")!;
  assert.equal(p50.values[1], null);
  assert.notEqual(p50.values[2], null, "a run that failed an SLO measured the code: kept");
  const throughput = series.find((s) => s.metric === "throughput")!;
  assert.notEqual(throughput.values[1], null);
});
