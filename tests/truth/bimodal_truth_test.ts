/**
 * Truth tests for the bimodal and first-n targets: response times are fixed per request, so the
 * corrected percentiles must equal them within 5% or 2 ms. The slow mode is 500 ms so that the
 * 5% (25 ms) covers the one-off stalls of several milliseconds that a shared 2-core VM gives any
 * single sample, the max included.
 */
import assert from "node:assert/strict";
import { startTargetProcess } from "../_helpers/target_process.ts";
import { offTruth, runAgainst } from "../_helpers/truth.ts";

Deno.test("corrected percentiles match a bimodal target: 20% take 500 ms, the rest 1 ms", async () => {
  await using target = await startTargetProcess([
    ...["--mode", "bimodal", "--frac", "0.2", "--slow", "500ms", "--delay", "1ms"],
  ]);
  const recorded = await runAgainst(target.url, { rate: "400/s", duration: "3s", connections: 64 });
  const stage = recorded.stages[1];
  assert.equal(stage.counts.completed, 1200);
  assert.deepEqual(offTruth(stage.response, { "50": 1, "90": 500, "99": 500, max: 500 }), []);
});

Deno.test("corrected percentiles match a first-n target: 800 fast, then 500 ms each", async () => {
  // The 1 s warmup at 400/s takes the first 400 fast responses; the measured stage gets 400 more.
  await using target = await startTargetProcess([
    ...["--mode", "first-n", "--n", "800", "--delay", "1ms", "--slow", "500ms"],
  ]);
  const recorded = await runAgainst(target.url, {
    rate: "400/s",
    duration: "3s",
    connections: 256,
  });
  const stage = recorded.stages[1];
  assert.equal(stage.counts.completed, 1200);
  // 500 ms at 400/s keeps 200 requests in flight: 256 connections never make one wait.
  // 400 of 1200 fast: p30 and below are 1 ms, p50 and above 500 ms.
  assert.deepEqual(offTruth(stage.response, { "50": 500, "90": 500, "99": 500, max: 500 }), []);
});
