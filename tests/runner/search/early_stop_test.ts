import assert from "node:assert/strict";
import type { Progress } from "../../../runner/run/run_engine.ts";
import type { Slo } from "../../../runner/plan/types.ts";
import { ageBeyondUs, certainFailure, earlyStopWatch } from "../../../runner/search/early_stop.ts";

const p99: Slo = {
  text: "p99 < 10ms",
  metric: { kind: "percentile", percentile: 99 },
  operator: "<",
  bound: 10_000,
  line: 3,
};
const errors: Slo = {
  text: "error_rate < 1%",
  metric: { kind: "error_rate" },
  operator: "<",
  bound: 0.01,
  line: 4,
};
const labelled: Slo = { ...p99, text: 'p99 < 10ms for "GET /"', label: "GET /" };

Deno.test("a backlog older than the bound beyond what the percentile allows is a certain failure", () => {
  // 1000/s for 10 s: p99 allows about 100 of 10,000 beyond 10 ms; requests outstanding for over
  // 60 ms (10 ms + 50 ms) are beyond it whatever happens, and at most 60 of the outstanding are younger.
  assert.equal(ageBeyondUs(10_000), 60_000);
  const e = { plannedCount: 10_000, failures: 0, ratePerSec: 1000 };
  assert.equal(certainFailure([p99], { ...e, outstanding: 150 }), undefined);
  const certain = certainFailure([p99], { ...e, outstanding: 300 });
  assert.equal(certain?.slo, "p99 < 10ms");
  assert.match(
    certain!.reason,
    /240 requests already failed or are outstanding for over 60ms of the step's 10000/,
  );
  // Failures count beyond every latency bound, and alone decide an error rate.
  assert.equal(certainFailure([p99], { ...e, outstanding: 0, failures: 200 })?.slo, "p99 < 10ms");
  assert.equal(certainFailure([errors], { ...e, outstanding: 10_000, failures: 50 }), undefined);
  assert.equal(
    certainFailure([errors], { ...e, outstanding: 0, failures: 200 })?.slo,
    "error_rate < 1%",
  );
  // Progress is not per label: a labelled SLO waits for the step's end.
  assert.equal(certainFailure([labelled], { ...e, outstanding: 5_000 }), undefined);
});

Deno.test("the watch counts from the measured stage, and needs the failure twice in a row", () => {
  const watch = earlyStopWatch([p99], { ratePerSec: 1000, durationMs: 10_000, stageIndex: 1 });
  const progress = (stageIndex: number, queued: number, errors = 0): Progress => ({
    offsetMs: 0,
    durationMs: 12_000,
    stageIndex,
    stageName: "s",
    intendedPerSec: 1000,
    sentPerSec: 1000,
    p99Us: undefined,
    completed: 0,
    errors,
    queued,
    inflight: 0,
  });
  // A backlog in the warmup is not the measured stage's.
  assert.equal(watch(progress(0, 5_000)), undefined);
  assert.equal(watch(progress(1, 5_000)), undefined); // the backlog the warmup left
  assert.equal(watch(progress(1, 5_400)), undefined); // once: could be the generator's pause
  assert.equal(watch(progress(1, 5_100)), undefined); // gone below the limit again
  assert.equal(watch(progress(1, 5_400)), undefined);
  assert.equal(watch(progress(1, 5_500))?.slo, "p99 < 10ms");
});
