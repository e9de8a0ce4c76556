import assert from "node:assert/strict";
import { FakeClock } from "./fake_clock.ts";
import { ManualWaker } from "./manual_waker.ts";

/** Whether `promise` has settled after pending microtasks ran. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  promise.then(() => done = true);
  for (let i = 0; i < 5; i++) await Promise.resolve();
  return done;
}

Deno.test("a sleep resolves only once the clock reaches its deadline", async () => {
  const clock = new FakeClock(100);
  const waker = new ManualWaker(clock);
  const slept = waker.sleepUntil(105);
  assert.equal(waker.pendingDeadlineMs, 105);
  clock.advance(4.9);
  assert.equal(await settled(slept), false);
  clock.advance(0.1);
  assert.equal(await settled(slept), true);
  assert.equal(waker.pendingDeadlineMs, undefined);
});

Deno.test("a deadline already reached resolves at once", async () => {
  const clock = new FakeClock(50);
  const waker = new ManualWaker(clock);
  assert.equal(await settled(waker.sleepUntil(50)), true);
  assert.equal(await settled(waker.sleepUntil(10)), true);
  assert.equal(waker.pendingDeadlineMs, undefined);
});

Deno.test("re-arming moves the pending sleep's deadline and returns the same sleep", async () => {
  const clock = new FakeClock();
  const waker = new ManualWaker(clock);
  const first = waker.sleepUntil(10);
  const second = waker.sleepUntil(20);
  assert.equal(first, second);
  clock.set(15);
  assert.equal(await settled(first), false);
  clock.set(20);
  assert.equal(await settled(first), true);
});

Deno.test("interrupt and close end a pending sleep without moving the clock", async () => {
  const clock = new FakeClock();
  const waker = new ManualWaker(clock);
  const interrupted = waker.sleepUntil(10);
  waker.interrupt();
  assert.equal(await settled(interrupted), true);
  waker.interrupt(); // nothing pending: no-op
  assert.equal(waker.interrupts, 1);
  const closed = waker.sleepUntil(10);
  waker.close();
  assert.equal(await settled(closed), true);
  assert.equal(await settled(waker.sleepUntil(1_000)), true);
  assert.equal(clock.nowMs(), 0);
});

Deno.test("a test driver can step a sleeping loop from deadline to deadline", async () => {
  const clock = new FakeClock();
  const waker = new ManualWaker(clock);
  const wokenAtMs: number[] = [];
  const loop = (async () => {
    for (const deadlineMs of [3, 7, 7.5]) {
      await waker.sleepUntil(deadlineMs);
      wokenAtMs.push(clock.nowMs());
    }
  })();
  const seenDeadlines: number[] = [];
  for (let i = 0; i < 3; i++) {
    if (waker.pendingDeadlineMs === undefined) seenDeadlines.push(await waker.nextSleep());
    else seenDeadlines.push(waker.pendingDeadlineMs);
    assert.equal(waker.advanceToDeadline(), true);
  }
  await loop;
  assert.deepEqual(seenDeadlines, [3, 7, 7.5]);
  assert.deepEqual(wokenAtMs, [3, 7, 7.5]);
  assert.equal(waker.advanceToDeadline(), false);
  assert.equal(waker.sleeps, 3);
});
