import assert from "node:assert/strict";
import { evaluateSlos } from "../../../../runner/gates/slo/evaluate_slos.ts";
import type { RunResult, StageTimeDomain } from "../../../../runner/model/run_result.ts";
import { gateResult, scaledUs } from "../../../_helpers/gate_fixtures.ts";

function result(
  timeDomain: StageTimeDomain | undefined,
  slos: string[],
  options: { durationMs?: number; floorUs?: number; toolLimited?: boolean } = {},
): RunResult {
  const r = gateResult([{
    ratePerSec: 1000,
    durationMs: options.durationMs ?? 60_000,
    labels: [{ label: "GET /", response: scaledUs(60_000, 1) }],
  }], { slos, floorUs: options.floorUs ?? 500, toolLimited: options.toolLimited });
  if (timeDomain) r.stages[0].timeDomain = timeDomain;
  return r;
}

const flat = { slope: 50, low: -100, high: 200, significant: false };
const rising = { slope: 3_000, low: 2_500, high: 3_600, significant: true };
const straddling = { slope: 900, low: 600, high: 1_300, significant: true };

function td(over: Partial<StageTimeDomain> = {}): StageTimeDomain {
  return {
    trendP50UsPerMin: flat,
    trendP99UsPerMin: flat,
    stalls: [],
    stallThresholdUs: 20_000,
    bimodal: { flagged: false },
    ...over,
  };
}

Deno.test("trend(p99) passes when the slope's whole interval is under the bound, fails when over", () => {
  const [pass] = evaluateSlos(result(td(), ["trend(p99) < 1ms/min"]));
  assert.equal(pass.status, "pass", pass.message);
  assert.equal(pass.unit, "us_per_min");
  assert.deepEqual(pass.ci95, [-100, 200]);
  const [fail] = evaluateSlos(result(td({ trendP99UsPerMin: rising }), ["trend(p99) < 1ms/min"]));
  assert.equal(fail.status, "fail");
  assert.equal(fail.measured, 3_000);
  assert.match(fail.message, /p99 moves 3ms\/min \(95% interval 2\.5ms\/min to 3\.6ms\/min\)/);
  // p50 is judged on its own series.
  const [p50] = evaluateSlos(result(td({ trendP99UsPerMin: rising }), ["trend(p50) < 1ms/min"]));
  assert.equal(p50.status, "pass");
});

Deno.test("trend: a bound inside the interval, a behind-schedule generator or no trend is inconclusive", () => {
  const [inside] = evaluateSlos(
    result(td({ trendP99UsPerMin: straddling }), ["trend(p99) < 1ms/min"]),
  );
  assert.equal(inside.status, "inconclusive");
  assert.deepEqual(inside.causes, ["sampling"]);
  const [late] = evaluateSlos(result(td(), ["trend(p99) < 1ms/min"], { toolLimited: true }));
  assert.equal(late.status, "inconclusive");
  assert.deepEqual(late.causes, ["schedule"]);
  // A clear drift fails even when the generator fell behind.
  const [still] = evaluateSlos(
    result(td({ trendP99UsPerMin: rising }), ["trend(p99) < 1ms/min"], { toolLimited: true }),
  );
  assert.equal(still.status, "fail");
  const [none] = evaluateSlos(
    result(td({ trendP50UsPerMin: undefined, trendP99UsPerMin: undefined }), [
      "trend(p99) < 1ms/min",
    ]),
  );
  assert.equal(none.status, "inconclusive");
  assert.match(none.message, /no bound stage is a constant-rate stage of 10s or more/);
});

Deno.test("stalls == 0 fails on a stall beyond the generator's own pauses, passes on none", () => {
  const [none] = evaluateSlos(result(td(), ["stalls == 0"]));
  assert.equal(none.status, "pass", none.message);
  assert.equal(none.unit, "count");
  const stalled = td({ stalls: [{ startMs: 4_000, maxUs: 800_000, why: "slow" }] });
  const [fail] = evaluateSlos(result(stalled, ["stalls == 0"]));
  assert.equal(fail.status, "fail");
  assert.equal(fail.measured, 1);
  assert.match(fail.message, /1 stall in 1m against none allowed: at 4s \(max 800ms\)/);
  const [allowed] = evaluateSlos(result(stalled, ["stalls <= 1"]));
  assert.equal(allowed.status, "pass");
});

Deno.test("stalls the generator's own pauses could explain, or too short a stage, are inconclusive", () => {
  // The generator itself paused 790 ms: an interval max of 800 ms over a 20 ms threshold could be it.
  const stalled = td({ stalls: [{ startMs: 4_000, maxUs: 800_000, why: "slow" }] });
  const [doubt] = evaluateSlos(result(stalled, ["stalls == 0"], { floorUs: 790_000 }));
  assert.equal(doubt.status, "inconclusive", doubt.message);
  assert.deepEqual(doubt.causes, ["generator"]);
  assert.match(doubt.message, /could be the generator's own pauses/);
  // Nothing answered for a second: the generator's 600 ms pause could explain it too.
  const silent = td({ stalls: [{ startMs: 4_000, maxUs: 0, why: "nothing answered" }] });
  assert.equal(
    evaluateSlos(result(silent, ["stalls == 0"], { floorUs: 600_000 }))[0].status,
    "inconclusive",
  );
  assert.equal(evaluateSlos(result(silent, ["stalls == 0"], { floorUs: 5_000 }))[0].status, "fail");
  const [short] = evaluateSlos(result(td(), ["stalls == 0"], { durationMs: 5_000 }));
  assert.equal(short.status, "inconclusive");
  assert.deepEqual(short.causes, ["sampling"]);
});

Deno.test("a run does not judge sustainable_rate: it is the capacity search's gate", () => {
  const verdicts = evaluateSlos(result(td(), ["sustainable_rate >= 1k/s", "p99 < 1s"]));
  assert.deepEqual(verdicts.map((v) => v.name), ["p99 < 1s"]);
});
