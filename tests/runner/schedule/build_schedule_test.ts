import assert from "node:assert/strict";
import type { PlanStage } from "../../../runner/plan/types.ts";
import {
  Schedule,
  type ScheduleInput,
  stageWindowAt,
} from "../../../runner/schedule/build_schedule.ts";

function constant(index: number, ratePerSec: number, durationMs: number): PlanStage {
  return {
    kind: "constant",
    index,
    name: `c${index}`,
    ratePerSec,
    durationMs,
    warmup: false,
    line: 1,
  };
}

function ramp(index: number, fromPerSec: number, toPerSec: number, durationMs: number): PlanStage {
  return {
    kind: "ramp",
    index,
    name: `r${index}`,
    fromPerSec,
    toPerSec,
    durationMs,
    warmup: false,
    line: 1,
  };
}

function input(stages: PlanStage[], more: Partial<ScheduleInput> = {}): ScheduleInput {
  return { arrival: "constant", seed: 1, weights: [1], stages, ...more };
}

function walk(s: Schedule, shard?: { index: number; count: number }) {
  const out: Array<{ index: number; fireMs: number; stageIndex: number; labelIndex: number }> = [];
  const c = s.cursor(shard);
  for (; !c.done; c.advance()) {
    out.push({
      index: c.index,
      fireMs: c.fireMs,
      stageIndex: c.stageIndex,
      labelIndex: c.labelIndex,
    });
  }
  return out;
}

Deno.test("schedule() spaces a 20k/s stage 50us apart", () => {
  const reqs = walk(new Schedule(input([constant(0, 20_000, 100)])));
  assert.equal(reqs.length, 2_000);
  for (let i = 1; i < reqs.length; i++) {
    assert.ok(Math.abs(reqs[i].fireMs - reqs[i - 1].fireMs - 0.05) < 1e-9, `gap at ${i}`);
  }
});

Deno.test("schedule() sends rate x duration requests per stage, within one", () => {
  for (
    const [rate, ms] of [[20_000, 60_000], [3, 1_500], [7, 1_000], [1_000, 333], [0.5, 10_000]]
  ) {
    const s = new Schedule(input([constant(0, rate, ms)]));
    assert.ok(
      Math.abs(s.totalCount - rate * ms / 1000) <= 1,
      `${rate}/s for ${ms}ms: ${s.totalCount}`,
    );
  }
  assert.equal(new Schedule(input([constant(0, 20_000, 60_000)])).totalCount, 1_200_000);
});

Deno.test("schedule() keeps the last fire time inside the stage and the next stage after it", () => {
  const s = new Schedule(input([constant(0, 3, 1_500), constant(1, 10, 1_000)]));
  const reqs = walk(s);
  const first = reqs.filter((r) => r.stageIndex === 0);
  assert.deepEqual(first.map((r) => Math.round(r.fireMs)), [0, 333, 667, 1000, 1333]);
  const second = reqs.filter((r) => r.stageIndex === 1);
  assert.equal(second[0].fireMs, 1_500);
  assert.equal(second.length, 10);
  assert.ok(second.at(-1)!.fireMs < 2_500);
  assert.deepEqual(reqs.map((r) => r.index), [...Array(15).keys()]);
});

Deno.test("schedule() makes a ramp's instantaneous rate follow the line", () => {
  const s = new Schedule(input([ramp(0, 1_000, 3_000, 10_000)]));
  assert.equal(s.totalCount, 20_000);
  const reqs = walk(s);
  // Requests per second of the ramp: 1000 + 200·(second + 0.5) for a linear rate.
  const perSecond = new Array(10).fill(0);
  for (const r of reqs) perSecond[Math.floor(r.fireMs / 1000)]++;
  perSecond.forEach((n, sec) =>
    assert.ok(Math.abs(n - (1_100 + 200 * sec)) <= 1, `second ${sec}: ${n}`)
  );
  // Gaps shrink monotonically on a rising ramp.
  for (let i = 2; i < reqs.length; i++) {
    assert.ok(
      reqs[i].fireMs - reqs[i - 1].fireMs <= reqs[i - 1].fireMs - reqs[i - 2].fireMs + 1e-9,
    );
  }
});

Deno.test("schedule() follows a falling ramp too", () => {
  const reqs = walk(new Schedule(input([ramp(0, 3_000, 1_000, 2_000)])));
  assert.equal(reqs.length, 4_000);
  const firstSecond = reqs.filter((r) => r.fireMs < 1_000).length;
  assert.ok(Math.abs(firstSecond - 2_500) <= 1, `first second: ${firstSecond}`);
});

Deno.test("schedule() computes fire time n from n, so a long stage does not drift", () => {
  const s = new Schedule(input([constant(0, 30_000, 600_000)]));
  const c = s.cursor({ index: 17_999_999, count: 18_000_000 });
  assert.equal(c.index, 17_999_999);
  assert.equal(c.fireMs, 17_999_999 / 30);
});

Deno.test("schedule() gives the same poisson schedule for the same seed, another for another", () => {
  const stages = [constant(0, 2_000, 5_000), ramp(1, 1_000, 4_000, 5_000)];
  const a = walk(new Schedule(input(stages, { arrival: "poisson", seed: 7 })));
  const b = walk(new Schedule(input(stages, { arrival: "poisson", seed: 7 })));
  const c = walk(new Schedule(input(stages, { arrival: "poisson", seed: 8 })));
  assert.deepEqual(a, b);
  assert.notDeepEqual(a.map((r) => r.fireMs), c.map((r) => r.fireMs));
});

Deno.test("schedule() draws poisson gaps with the plan's mean rate and exponential spread", () => {
  const reqs = walk(
    new Schedule(input([constant(0, 10_000, 20_000)], { arrival: "poisson", seed: 3 })),
  );
  // 200,000 expected; a Poisson count's sd is sqrt(200000) ≈ 447.
  assert.ok(Math.abs(reqs.length - 200_000) < 5 * 447, `count ${reqs.length}`);
  const gaps = reqs.slice(1).map((r, i) => r.fireMs - reqs[i].fireMs);
  const mean = gaps.reduce((a, b) => a + b, 0) / gaps.length;
  assert.ok(Math.abs(mean - 0.1) < 0.002, `mean gap ${mean}`);
  // For an exponential distribution P(gap > mean) = e^-1 ≈ 0.368.
  const above = gaps.filter((g) => g > 0.1).length / gaps.length;
  assert.ok(Math.abs(above - Math.exp(-1)) < 0.01, `P(gap > mean) ${above}`);
  assert.ok(gaps.every((g) => g >= 0));
});

Deno.test("schedule() shards interleave: their union is the whole schedule", () => {
  const s = new Schedule(
    input([constant(0, 1_000, 1_000), ramp(1, 500, 1_500, 2_000)], { weights: [3, 1] }),
  );
  const whole = walk(s);
  const shards = [0, 1, 2].map((index) => walk(s, { index, count: 3 }));
  shards.forEach((shard, i) => assert.equal(shard.length, s.shardCount({ index: i, count: 3 })));
  const union = shards.flat().sort((a, b) => a.index - b.index);
  assert.deepEqual(union, whole);
});

Deno.test("schedule() mixes labels by weight in every prefix", () => {
  const reqs = walk(new Schedule(input([constant(0, 1_000, 10_000)], { weights: [9, 1] })));
  for (const n of [100, 1_000, 10_000]) {
    const second = reqs.slice(0, n).filter((r) => r.labelIndex === 1).length;
    assert.ok(Math.abs(second - n / 10) <= 2, `${second} of ${n}`);
  }
});

Deno.test("schedule() refuses an impossible shard", () => {
  const s = new Schedule(input([constant(0, 10, 1_000)]));
  assert.throws(() => s.cursor({ index: 3, count: 3 }), RangeError);
});

Deno.test("a schedule's stage at an offset is its own, the last past the end", () => {
  const schedule = new Schedule({
    arrival: "constant",
    seed: 1,
    weights: [1],
    stages: [constant(0, 10, 1_000), ramp(1, 10, 20, 2_000), constant(2, 5, 500)],
  });
  const at = (offsetMs: number) => stageWindowAt(schedule.stages, offsetMs).index;
  assert.deepEqual([0, 999, 1_000, 2_999, 3_000, 9_000].map(at), [0, 0, 1, 1, 2, 2]);
  for (const offsetMs of [0, 999, 1_000, 3_000, 9_000]) {
    assert.equal(schedule.stageAt(offsetMs), stageWindowAt(schedule.stages, offsetMs));
  }
});
