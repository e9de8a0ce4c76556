import assert from "node:assert/strict";
import { createHistogram, encodeHistogram } from "../../../runner/hdr/mod.ts";
import type { IntervalResult } from "../../../runner/model/run_result.ts";
import {
  analyseStage,
  theilSen,
  twoModes,
  withTimeDomain,
} from "../../../runner/result/time_domain.ts";
import { sampleResult } from "../../_helpers/result_fixtures.ts";
import { mulberry32 as seededRandom } from "../../_helpers/seeded_random.ts";

function hdrOf(values: number[]): string {
  const h = createHistogram();
  for (const v of values) h.recordValue(v);
  return encodeHistogram(h);
}

function interval(
  startMs: number,
  maxUs: number,
  completedPerSec = 100,
  stageIndex = 1,
  p50Us = 1_000,
): IntervalResult {
  return {
    startMs,
    durationMs: 1_000,
    stageIndex,
    intendedPerSec: 100,
    sentPerSec: 100,
    completedPerSec,
    counts: {
      scheduled: 100,
      sent: 100,
      completed: 100,
      ok: 100,
      errors: {},
      statusCodes: {},
      bytesSent: 0,
      bytesReceived: 0,
    },
    labels: [],
    response: {
      count: 100,
      minUs: 900,
      maxUs,
      meanUs: 1_000,
      percentilesUs: { "50": p50Us, "99": maxUs },
      hdr: "",
    },
    service: { count: 100, minUs: 900, maxUs: 1_000, meanUs: 1_000, percentilesUs: {}, hdr: "" },
  };
}

Deno.test("theilSen recovers a slope through noise and outliers, with an interval around it", () => {
  const random = seededRandom(7);
  const points = Array.from({ length: 30 }, (_, i): [number, number] => {
    const outlier = i % 9 === 4 ? 5_000 : 0; // a few wild seconds do not bend it
    return [i, 100 + 20 * i + (random() - 0.5) * 40 + outlier];
  });
  const t = theilSen(points)!;
  assert.ok(Math.abs(t.slope - 20) < 2, `${t.slope}`);
  assert.ok(t.low <= 20 && 20 <= t.high && t.significant, JSON.stringify(t));
  const flat = theilSen(
    Array.from({ length: 30 }, (_, i): [number, number] => [i, 100 + random()]),
  )!;
  assert.equal(flat.significant, false);
  assert.equal(theilSen([[0, 1], [1, 2], [2, 3]]), undefined, "too few points for a trend");
});

Deno.test("twoModes flags two separate peaks and not one long tail", () => {
  const two = twoModes(hdrOf([...Array(950).fill(1_000), ...Array(50).fill(40_000)]));
  assert.equal(two.flagged, true);
  const [a, b] = two.modesUs!;
  assert.ok(a > 850 && a < 1_200 && b > 34_000 && b < 48_000, `${a}, ${b}`);
  const random = seededRandom(3);
  const exponential = Array.from(
    { length: 5_000 },
    () => Math.ceil(-1_000 * Math.log(1 - random())),
  );
  assert.deepEqual(twoModes(hdrOf(exponential)), { flagged: false });
  // A 1% side is below the 2% a mode must hold.
  assert.equal(
    twoModes(hdrOf([...Array(990).fill(1_000), ...Array(10).fill(40_000)])).flagged,
    false,
  );
});

Deno.test("analyseStage lists stalls with their times and period, and no trend in a level series", () => {
  // A 500 ms freeze every 3 s: nothing answered in the frozen second, its requests answered late.
  const intervals = Array.from(
    { length: 12 },
    (_, k) => k % 3 === 2 ? interval(k * 1_000, 500_000, 0) : interval(k * 1_000, 2_000),
  );
  const t = analyseStage(intervals, hdrOf([1_000]), 1_000);
  assert.deepEqual(t.stalls.map((s) => [s.startMs, s.why]), [
    [2_000, "nothing answered"],
    [5_000, "nothing answered"],
    [8_000, "nothing answered"],
    [11_000, "nothing answered"],
  ]);
  assert.equal(t.stallPeriodMs, 3_000);
  assert.equal(t.trendP99UsPerMin?.significant, false);
});

/** Seconds of a busy machine's noise (ms): their worst requests reach tens of milliseconds. */
const BUSY_MS = [5, 6, 8, 44, 51, 58, 30, 7, 25, 9, 48, 6, 12, 40, 7, 22, 6, 9, 55, 33];

Deno.test("analyseStage on a busy machine finds each freeze, not the busy seconds between them", () => {
  // The demo target's 1 s freezes every 5 s, each spilling into the next second (its drain), in
  // seconds whose own max reaches 58 ms: over the 20 ms floor, but no stall.
  const freezes = new Set([3, 8, 13, 18]);
  const intervals = BUSY_MS.map((ms, k) =>
    freezes.has(k)
      ? interval(k * 1_000, 1_000_000)
      : freezes.has(k - 1)
      ? interval(k * 1_000, 600_000)
      : interval(k * 1_000, ms * 1_000)
  );
  const t = analyseStage(intervals, hdrOf([1_000]), 100);
  assert.deepEqual(t.stalls.map((s) => s.startMs), [3_000, 8_000, 13_000, 18_000]);
  assert.equal(t.stallPeriodMs, 5_000);
  assert.ok(t.stallThresholdUs! > 58_000, `${t.stallThresholdUs}`);
  // The busy seconds keep the median's bar (10 × 30 ms): none of them stands out from the rest.
  assert.equal(t.stallThresholdUs, 300_000);
});

Deno.test("analyseStage finds freezes that spill into most of a stage's seconds", () => {
  // A 500 ms freeze every 3 s, each across two seconds (its drain): 8 of 12 seconds stand out, so
  // the median second is a drained one, and judged by it no freeze would (the truth test's run).
  const maxesMs = [496, 276, 26, 496, 276, 25, 500, 281, 36, 497, 277, 4];
  const intervals = maxesMs.map((ms, k) => interval((k + 1) * 1_000, ms * 1_000));
  const t = analyseStage(intervals, hdrOf([1_600]), 1_600);
  assert.deepEqual(t.stalls.map((s) => s.startMs), [1_000, 4_000, 7_000, 10_000]);
  assert.equal(t.stallPeriodMs, 3_000);
  assert.equal(t.stallThresholdUs, 360_000);
});

Deno.test("analyseStage gives a period only when the gaps between stalls are regular", () => {
  const at = (starts: number[]) =>
    analyseStage(
      Array.from(
        { length: 30 },
        (_, k) => interval(k * 1_000, starts.includes(k) ? 1_000_000 : 2_000),
      ),
      hdrOf([1_000]),
      1_000,
    );
  assert.equal(at([3, 8, 11]).stallPeriodMs, undefined, "gaps of 5 s and 3 s");
  assert.equal(at([3, 8, 11, 16, 21]).stallPeriodMs, undefined);
  // Start times are whole seconds: a gap one second off is within their resolution.
  assert.equal(at([2, 6, 11, 16, 21, 26]).stallPeriodMs, 5_000);
  assert.equal(at([2, 12, 22]).stallPeriodMs, 10_000);
});

Deno.test("analyseStage leaves a stall under way when the stage began to the stage before", () => {
  const intervals = [12, 13, 14, 15, 16, 17].map((k) =>
    interval(k * 1_000, k === 12 ? 240_000 : k === 16 ? 1_000_000 : 3_000)
  );
  const frozen = interval(11_000, 1_000_000, 100, 0);
  const t = analyseStage(intervals, hdrOf([1_000]), 100, true, frozen);
  assert.deepEqual(t.stalls.map((s) => s.startMs), [16_000]);
  const calm = interval(11_000, 3_000, 100, 0);
  const after = analyseStage(intervals, hdrOf([1_000]), 100, true, calm);
  assert.deepEqual(after.stalls.map((s) => s.startMs), [12_000, 16_000]);
});

Deno.test("analyseStage finds a freeze over most of a short stage", () => {
  const t = analyseStage(
    [interval(0, 4_000), interval(1_000, 1_000_000), interval(2_000, 500_000)],
    hdrOf([1_000]),
    1_000,
  );
  assert.deepEqual(t.stalls.map((s) => s.startMs), [1_000]);
  const one = analyseStage([interval(0, 1_000_000)], hdrOf([1_000]), 1_000);
  assert.deepEqual(one.stalls.map((s) => s.startMs), [0], "one second: the floor alone");
});

Deno.test("withTimeDomain analyses measured stages only, and trends constant-rate stages only", () => {
  const base = sampleResult();
  const measured = base.stages[1];
  // Twelve whole seconds whose p50 rises 1 ms a second, filed under the measured stage.
  const rising = Array.from(
    { length: 12 },
    (_, k) => interval(k * 1_000, 3_000 + k * 1_000, 100, measured.index, 1_000 + k * 1_000),
  );
  const [warm, constant] = withTimeDomain(base.stages, rising);
  assert.equal(warm.timeDomain, undefined, "the warmup is not analysed");
  assert.ok(
    Math.abs(constant.timeDomain!.trendP50UsPerMin!.slope - 60_000) < 1,
    "1 ms/s is 60 ms/min",
  );
  const [, ramp] = withTimeDomain([base.stages[0], { ...measured, kind: "ramp" }], rising);
  assert.ok(ramp.timeDomain, "a ramp is analysed for stalls and shape");
  assert.equal(ramp.timeDomain!.trendP50UsPerMin, undefined, "but not for a trend");
  // A stale analysis (a shard's) is replaced, not kept.
  const stale = { ...measured, timeDomain: { stalls: [], bimodal: { flagged: true } } };
  assert.equal(withTimeDomain([stale], rising)[0].timeDomain!.bimodal.flagged, false);
});
