import assert from "node:assert/strict";
import type { PlanStage } from "../../../runner/plan/types.ts";
import { type Completion, Recorder } from "../../../runner/recorder/recorder.ts";
import { groupCounts, type LiveTally, TallySum } from "../../../runner/recorder/live_tally.ts";
import { Schedule } from "../../../runner/schedule/build_schedule.ts";

const LABELS = ["GET /a", "GET /b"];

function newRecorder(): Recorder {
  const stage = (index: number, warmup: boolean): PlanStage => ({
    kind: "constant",
    index,
    name: `s${index}`,
    ratePerSec: 10,
    durationMs: 2000,
    warmup,
    line: 1,
  });
  const stages = new Schedule({
    arrival: "constant",
    seed: 1,
    weights: [1, 1],
    stages: [stage(0, true), stage(1, false)],
  }).stages;
  return new Recorder(stages, LABELS, LABELS.map(() => ({ codes: [], classes: [2] })));
}

function answer(fireMs: number, stageIndex: number, labelIndex: number, status = 200): Completion {
  return {
    stageIndex,
    labelIndex,
    fireMs,
    writtenMs: fireMs,
    completedMs: fireMs + 5,
    status,
    bytesSent: 1,
    bytesReceived: 1,
  };
}

Deno.test("a tally counts requests taken, answered and failed per stage, label and open second", () => {
  const rec = newRecorder();
  rec.scheduled(100, 0, 0);
  rec.complete(answer(100, 0, 0));
  rec.scheduled(2100, 1, 1);
  rec.complete(answer(2100, 1, 1, 500)); // an unexpected status: failed
  rec.scheduled(2200, 1, 1); // still outstanding
  rec.scheduled(3100, 1, 0);
  rec.dispatchLag(7, 1);
  rec.dispatchLag(3, 1);
  const t = rec.tally(3500);
  assert.equal(t.atMs, 3500);
  assert.equal(t.labelCount, 2);
  const stage = (i: number, labels: number[]) => groupCounts(t.stages, i * 2 * 3, labels);
  assert.deepEqual(stage(0, [0, 1]), { scheduled: 1, ok: 1, failed: 0 });
  assert.deepEqual(stage(1, [1]), { scheduled: 2, ok: 0, failed: 1 });
  assert.deepEqual(stage(1, [0]), { scheduled: 1, ok: 0, failed: 0 });
  // Every second not yet closed, with its counts now; the longest dispatch lag since the last tally.
  assert.deepEqual(t.intervals.map((i) => i.index), [0, 2, 3]);
  const second2 = t.intervals.find((i) => i.index === 2)!;
  assert.deepEqual(groupCounts(second2.counts, 0, [1]), { scheduled: 2, ok: 0, failed: 1 });
  assert.equal(t.dispatchLagMs, 7);
  assert.equal(rec.tally(3600).dispatchLagMs, 0);
});

Deno.test("the tally taken before a second closes holds its final counts; the next one leaves it out", () => {
  const rec = newRecorder();
  rec.scheduled(2100, 1, 0);
  rec.scheduled(2200, 1, 0);
  rec.complete(answer(2100, 1, 0));
  rec.complete(answer(2200, 1, 0, 503));
  const closing = rec.tally(3001);
  rec.closeIntervals(3000);
  const second2 = closing.intervals.find((i) => i.index === 2)!;
  assert.deepEqual(groupCounts(second2.counts, 0, [0]), { scheduled: 2, ok: 1, failed: 1 });
  assert.equal(rec.tally(4001).intervals.some((i) => i.index === 2), false);
  // The stage's counts stay, sealed or not.
  assert.deepEqual(groupCounts(rec.tally(4002).stages, 6, [0]), { scheduled: 2, ok: 1, failed: 1 });
});

/** A tally of one label with the given seconds' [scheduled, ok, failed]. */
function tally(
  atMs: number,
  stage: number[],
  seconds: Record<number, number[]>,
  lag = 0,
): LiveTally {
  return {
    labelCount: 1,
    stages: new Float64Array(stage),
    intervals: Object.entries(seconds).map(([i, c]) => ({
      index: Number(i),
      counts: new Float64Array(c),
    })),
    atMs,
    dispatchLagMs: lag,
  };
}

Deno.test("TallySum adds the workers' latest tallies, keeping a second one worker closed in between", () => {
  const sum = new TallySum();
  sum.add(0, tally(1000, [10, 8, 1], { 0: [10, 8, 1] }));
  sum.add(1, tally(1020, [10, 9, 0], { 0: [10, 9, 0] }, 4));
  let s = sum.sum();
  assert.deepEqual([...s.stages], [20, 17, 1]);
  assert.deepEqual([...s.intervals[0].counts], [20, 17, 1]);
  assert.equal(s.atMs, 1000); // the earliest: an age judged then holds for both
  assert.equal(s.dispatchLagMs, 4);
  // Worker 1 reports twice before worker 0 again: second 0 closed in its first report.
  sum.add(1, tally(2020, [20, 18, 2], { 0: [10, 8, 2], 1: [10, 10, 0] }, 9));
  sum.add(1, tally(3020, [20, 18, 2], { 2: [0, 0, 0] }));
  sum.add(0, tally(2000, [20, 18, 1], { 0: [10, 9, 1], 1: [10, 9, 0] }));
  s = sum.sum();
  assert.deepEqual(s.intervals.map((i) => [i.index, ...i.counts]), [
    [0, 20, 17, 3],
    [1, 20, 19, 0],
    [2, 0, 0, 0],
  ]);
  assert.deepEqual([...s.stages], [40, 36, 3]);
  assert.equal(s.atMs, 2000);
  assert.equal(s.dispatchLagMs, 9); // the longest of either report since the last sum
  // Nothing reported since: no second, no lag.
  assert.deepEqual(sum.sum().intervals, []);
});
