/**
 * The journey truth test (issue 44, docs/engine.md "Journeys"). The built-in stall target freezes
 * for S = 1 s at the end of every P = 5 s. A two-step journey (steps `a`, `b`) starts 200 times a
 * second; outside a freeze each step takes well under a millisecond. With journey n fired at t:
 *
 * - **Step a** is due at t, as a single request is: 20% of journeys fire in a freeze and wait
 *   uniformly 0..S, so it reads the single request's truth (p90 = 500 ms, p99 = 950 ms).
 * - **Without think**, step b is due when a completes: a journey that waited for the freeze sends
 *   b just after it ended, so b never meets it (p99 ≈ 0), and the journey time (think excluded)
 *   meets the stall once: the same distribution as a's, not twice it.
 * - **With think 100 ms**, b is due 100 ms after a completes: the 2% of journeys fired in the
 *   100 ms before a freeze send b into it, and b waits kP − (t + 100) ∈ (S − 100, S]. So b's
 *   p99 = 950 ms (P(b > x) = 0.02·(1000 − x)/100); the journey time is a's wait or b's, never
 *   both: P(J > x) = 0.2·(1 − x/S) + 0.02 below 900 ms, so p90 = 600 ms, and p99 = 975 ms. The
 *   think time itself is in no figure: a journey that met no freeze takes about a millisecond,
 *   not 100 ms, and the 100 ms per journey is reported beside the journey time.
 *
 * Each step's figure is compared with its truth within 5% or 2 ms (the stall truth test's
 * tolerance), a journey's within 10%: the 200 steps b released together as a freeze ends (or
 * 100 ms after) wait a few ms more for the single-threaded target to drain them, which the
 * journey time rightly includes (measured with 100 connections at most: p90 519-521 ms without
 * think, 607-609 ms with it; step a 507-513 ms). A journey that counted the stall twice would read
 * p90 ≈ 1 s; one that hid it, ≈ 0.
 */
import assert from "node:assert/strict";
import { runWorkers } from "../../runner/run/run_workers.ts";
import type { JourneyResult, StageResult } from "../../runner/model/run_result.ts";
import { startTargetProcess } from "../_helpers/target_process.ts";
import { offTruth, STALL_TARGET_ARGS, STALL_TRUTH, type Truth } from "../_helpers/truth.ts";
import { parseText } from "../_helpers/plan_fixtures.ts";

/** Runs the two-step journey against `url` (1 s warmup, 10 s measured); the measured stage. */
async function runJourney(url: string, think: string | undefined): Promise<StageResult> {
  const { plan, issues } = parseText(`name: journey-truth
target: ${url}
requests:
  - journey: j
    weight: 1
    steps:
      - { name: a, path: /a }
      - { name: b, path: /b${think ? `, think: ${think}` : ""} }
load:
  connections: 8
  max_connections: 100
  stages:
    - { rate: 200/s, duration: 1s, warmup: true }
    - { rate: 200/s, duration: 10s }
`);
  assert.ok(plan, JSON.stringify(issues));
  const run = await runWorkers({ plan, io: "deno" });
  assert.equal(run.complete, true);
  return run.recorded.stages[1];
}

function label(stage: StageResult, name: string) {
  return stage.labels.find((l) => l.label === name)!;
}

function journeyOf(stage: StageResult): JourneyResult {
  return stage.journeys![0];
}

Deno.test("journey truth: the first step reads as a request; the journey meets a stall once; think is in no figure", async () => {
  await using target = await startTargetProcess(STALL_TARGET_ARGS);

  const plain = await runJourney(target.url, undefined);
  const a = label(plain, "j / a");
  const b = label(plain, "j / b");
  assert.equal(a.counts.ok, 2000);
  assert.equal(b.counts.ok, 2000);
  assert.deepEqual(offTruth(a.response, STALL_TRUTH), [], "step a reads as a single request");
  // b follows a's completion: the freeze is over by then. (The 20% of bs released together as a
  // freeze ends wait for the target to drain them: 8-25 ms measured; one that met the freeze, or
  // was timed from its journey's start, would read hundreds of ms.)
  assert.ok(b.response.percentilesUs["99"] < 100_000, `b p99 ${b.response.percentilesUs["99"]}us`);
  const j = journeyOf(plain);
  assert.deepEqual([j.started, j.completed, j.failed, j.thinkMs], [2000, 2000, 0, 0]);
  assert.deepEqual(offTruth(j.journey, STALL_TRUTH, 0.1), [], "the journey meets the stall once");

  const thinking = await runJourney(target.url, "100ms");
  const ta = label(thinking, "j / a");
  const tb = label(thinking, "j / b");
  assert.deepEqual(offTruth(ta.response, STALL_TRUTH), [], "think moves nothing of step a");
  // The 2% of bs sent into a freeze: p99 and max (below it, the 20% of bs released together
  // 100 ms after a freeze, a burst the target takes a few ms to drain).
  const bTruth = { "99": 950, max: 1000 } as Truth;
  assert.deepEqual(offTruth(tb.response, bTruth), [], "b measured from its due time");
  // Its median met no freeze and holds no think (it would read 100 ms).
  assert.ok(tb.response.percentilesUs["50"] < 20_000, `b p50 ${tb.response.percentilesUs["50"]}us`);
  const tj = journeyOf(thinking);
  assert.deepEqual([tj.started, tj.completed, tj.failed], [2000, 2000, 0]);
  assert.ok(Math.abs(tj.thinkMs - 2000 * 100) < 1e-6, "the think time is reported beside it");
  const journeyTruth: Truth = { "50": 0, "90": 600, "99": 975, max: 1000 };
  assert.deepEqual(
    offTruth(tj.journey, journeyTruth, 0.1),
    [],
    "think excluded from journey time",
  );
  // A journey that met no freeze took about a millisecond: its 100 ms of think is not in it.
  assert.ok(tj.journey.percentilesUs["50"] < 20_000, `p50 ${tj.journey.percentilesUs["50"]}us`);
});
