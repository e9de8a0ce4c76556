import assert from "node:assert/strict";
import { createAtomicsWaker } from "../../../runner/engine/timing/atomics_waker.ts";
import { FakeClock } from "../../_helpers/fake_clock.ts";
import { ManualWaker } from "../../_helpers/manual_waker.ts";
import { PERFORMANCE_CLOCK } from "../../../runner/engine/types.ts";
import { PreciseSleeper } from "../../../runner/target/precise_sleeper.ts";

/** Lets pending promise callbacks run. */
async function flush(): Promise<void> {
  for (let i = 0; i < 10; i++) await Promise.resolve();
}

/** Starts sleeps to `deadlines`, recording the order (and result) in which they end. */
function sleepAll(sleeper: PreciseSleeper, deadlines: number[]) {
  const ended: Array<[number, boolean]> = [];
  const all = Promise.all(
    deadlines.map((d) => sleeper.sleepUntil(d).then((completed) => ended.push([d, completed]))),
  );
  return { ended, all };
}

Deno.test("concurrent sleeps end in deadline order, each only once its deadline is reached", async () => {
  const clock = new FakeClock();
  const waker = new ManualWaker(clock);
  const sleeper = new PreciseSleeper(waker, clock);
  const { ended, all } = sleepAll(sleeper, [30, 10, 20, 10.5]);
  await flush();
  assert.equal(waker.pendingDeadlineMs, 10, "the waker is armed to the earliest deadline");
  clock.set(9.99);
  await flush();
  assert.deepEqual(ended, []);
  clock.set(10.2);
  await flush();
  assert.deepEqual(ended, [[10, true]]);
  assert.equal(waker.pendingDeadlineMs, 10.5);
  clock.set(25);
  await flush();
  assert.deepEqual(ended, [[10, true], [10.5, true], [20, true]]);
  clock.set(30);
  await all;
  assert.deepEqual(ended, [[10, true], [10.5, true], [20, true], [30, true]]);
  sleeper.close();
});

Deno.test("a sleep added with an earlier deadline re-arms the waker to it", async () => {
  const clock = new FakeClock();
  const waker = new ManualWaker(clock);
  const sleeper = new PreciseSleeper(waker, clock);
  const { ended } = sleepAll(sleeper, [50]);
  await flush();
  assert.equal(waker.pendingDeadlineMs, 50);
  const early = sleeper.sleepUntil(5).then((completed) => ended.push([5, completed]));
  assert.equal(waker.pendingDeadlineMs, 5);
  clock.set(5);
  await early;
  assert.deepEqual(ended, [[5, true]]);
  sleeper.close();
});

Deno.test("a deadline already passed resolves true at once", async () => {
  const clock = new FakeClock(100);
  const waker = new ManualWaker(clock);
  const sleeper = new PreciseSleeper(waker, clock);
  assert.equal(await sleeper.sleepUntil(100), true);
  assert.equal(await sleeper.sleepUntil(3), true);
  assert.equal(waker.sleeps, 0, "no waker sleep for a deadline already reached");
  sleeper.close();
});

Deno.test("close() ends every pending sleep with false, and later sleeps too", async () => {
  const clock = new FakeClock();
  const waker = new ManualWaker(clock);
  const sleeper = new PreciseSleeper(waker, clock);
  const { ended, all } = sleepAll(sleeper, [10, 20]);
  await flush();
  sleeper.close();
  await all;
  assert.deepEqual(ended, [[10, false], [20, false]]);
  assert.equal(await sleeper.sleepUntil(clock.nowMs() + 1), false);
});

Deno.test("with the real waker, sleeps end in deadline order and never early", async () => {
  const sleeper = new PreciseSleeper(await createAtomicsWaker(), PERFORMANCE_CLOCK);
  try {
    const start = performance.now();
    const offsetsMs = [6, 2, 4, 3];
    const ended: Array<{ offsetMs: number; lateMs: number }> = [];
    await Promise.all(offsetsMs.map(async (offsetMs) => {
      const deadline = start + offsetMs;
      assert.equal(await sleeper.sleepUntil(deadline), true);
      ended.push({ offsetMs, lateMs: performance.now() - deadline });
    }));
    assert.deepEqual(ended.map((e) => e.offsetMs), [2, 3, 4, 6]);
    for (const e of ended) assert.ok(e.lateMs >= 0, `woke ${-e.lateMs} ms early`);
  } finally {
    sleeper.close();
  }
});
