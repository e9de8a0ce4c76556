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
