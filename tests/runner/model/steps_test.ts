import assert from "node:assert/strict";
import { drained, drainedUnless, type Steps } from "../../../runner/model/steps.ts";

/** `count` steps; the step at which `seen()` first held, and the count at the end. */
function* counting(count: number, seen: () => boolean): Steps<{ firstSeenAt?: number }> {
  let firstSeenAt: number | undefined;
  for (let k = 0; k < count; k++) {
    if (firstSeenAt === undefined && seen()) firstSeenAt = k;
    yield;
  }
  return firstSeenAt === undefined ? {} : { firstSeenAt };
}

Deno.test("drainedUnless() gives timers a turn between slices of steps, and returns the value", async () => {
  let fired = false;
  setTimeout(() => fired = true, 0);
  // One clock tick a step: a slice of 10 steps, then the event loop's turn.
  let tick = 0;
  const done = await drainedUnless(counting(100, () => fired), new AbortController().signal, {
    sliceMs: 10,
    now: () => tick++,
  });
  assert.equal(done.stopped, false);
  assert.ok(!done.stopped && done.value.firstSeenAt !== undefined && done.value.firstSeenAt < 20);
});

Deno.test("drainedUnless() stops between two steps once the signal is aborted, and ends the generator", async () => {
  const stop = new AbortController();
  let finished = false;
  function* steps(): Steps<number> {
    try {
      for (let k = 0; k < 1000; k++) {
        if (k === 5) stop.abort();
        yield;
      }
      return 1;
    } finally {
      finished = true;
    }
  }
  assert.deepEqual(await drainedUnless(steps(), stop.signal), { stopped: true });
  assert.ok(finished, "the generator's finally ran");
});

Deno.test("drained() runs every step at once: the same value, no timer's turn", () => {
  let fired = false;
  setTimeout(() => fired = true, 0);
  assert.deepEqual(drained(counting(1000, () => fired)), {});
});
