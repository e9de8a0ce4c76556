import assert from "node:assert/strict";
import { evaluateSlos } from "../../../../runner/gates/slo/evaluate_slos.ts";
import { journeyScope } from "../../../../runner/gates/slo/journey_scope.ts";
import type { Histogram } from "../../../../runner/hdr/mod.ts";
import { toEncodedHistogram } from "../../../../runner/hdr/encoded_histogram.ts";
import type { JourneyResult, RunResult } from "../../../../runner/model/run_result.ts";
import { gateResult, uniformUs } from "../../../_helpers/gate_fixtures.ts";

/** A journey `name` of one stage: `times` of its completed journeys, `failed` more. */
function journey(name: string, times: Histogram, failed = 0): JourneyResult {
  const completed = times.totalCount;
  return {
    name,
    journey: toEncodedHistogram(times),
    thinkMs: 0,
    started: completed + failed,
    completed,
    failed,
    steps: [{ label: `${name} / a`, skipped: failed }],
  };
}

/** One 10 s stage whose step label is fast (1 ms) and whose journeys are `journeys`. */
function result(journeys: JourneyResult[], slos: string[]): RunResult {
  const r = gateResult([{
    ratePerSec: 1000,
    durationMs: 10_000,
    labels: [{ label: "order / a", response: uniformUs(10_000, 900, 1000) }],
  }], { slos });
  r.stages[0].journeys = journeys;
  return r;
}

Deno.test("journey.p99 judges the journey times, not the steps' response times", () => {
  // Steps answer in 1 ms; journeys take 100-300 ms: p99 is about 298 ms.
  const r = result([journey("order", uniformUs(10_000, 100_000, 300_000))], [
    'journey.p99 < 200ms for "order"',
    "journey.p99 < 400ms",
    'p99 < 2ms for "order / a"',
  ]);
  const [fail, pass, step] = evaluateSlos(r);
  assert.equal(fail.status, "fail");
  assert.ok(Math.abs(fail.measured! - 298_000) < 400, `${fail.measured}`);
  assert.equal(fail.label, "order");
  assert.equal(pass.status, "pass");
  assert.equal(step.status, "pass");
});

Deno.test("a journey ended by a failed step is beyond every journey-time bound", () => {
  // 9,800 fast journeys and 200 failed: 2% beyond any bound, so p99 cannot pass.
  const r = result([journey("order", uniformUs(9_800, 1_000, 2_000), 200)], [
    "journey.p99 < 200ms",
  ]);
  const [v] = evaluateSlos(r);
  assert.equal(v.status, "fail");
  assert.equal(v.failures, 200);
});

Deno.test("too few journeys for a journey SLO's percentile is inconclusive", () => {
  const r = result([journey("order", uniformUs(20, 1_000, 2_000))], ["journey.p99 < 200ms"]);
  const [v] = evaluateSlos(r);
  assert.equal(v.status, "inconclusive");
});

Deno.test("a journey SLO naming no journey of the result, or several without for, is invalid", () => {
  const two = [
    journey("order", uniformUs(100, 1_000, 2_000)),
    journey("pay", uniformUs(100, 1_000, 2_000)),
  ];
  assert.deepEqual(journeyScope(result(two, []).stages, {}), {
    missing: "several journeys: name one with `for`",
  });
  const [v] = evaluateSlos(result(two, ['journey.p99 < 1s for "ship"']));
  assert.equal(v.status, "invalid");
  assert.match(v.message, /no journey named "ship"/);
  // A result written before journeys: none to judge.
  const old = result([], ["journey.max < 1s"]);
  delete old.stages[0].journeys;
  assert.equal(evaluateSlos(old)[0].status, "invalid");
});
