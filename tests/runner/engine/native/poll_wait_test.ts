import assert from "node:assert/strict";
import {
  deadlinesBatch,
  gapHolds,
  MAX_WAIT_MS,
  pollTimeoutMs,
  pollWait,
  type PollWaitState,
} from "../../../../runner/engine/native/poll_wait.ts";

/** A loop that last woke at 100 ms, with a 1 ms gap, asked at 100.2 ms. */
const state = (over: Partial<PollWaitState>): PollWaitState => ({
  nowMs: 100.2,
  deadlineMs: 100.5,
  lastWakeMs: 100,
  minGapMs: 1,
  sendIntervalMs: 0,
  readDeferMs: 0,
  eager: false,
  interrupted: false,
  ...over,
});

Deno.test("gap: holds below one send per two gaps, deadlines batch above two sends a gap", () => {
  assert.deepEqual(
    [gapHolds(0, 1), deadlinesBatch(0, 1)],
    [true, true],
    "before the dispatcher says",
  );
  assert.deepEqual([gapHolds(5, 1), deadlinesBatch(5, 1)], [false, false]);
  assert.deepEqual([gapHolds(1.99, 1), deadlinesBatch(1.99, 1)], [true, false]);
  assert.deepEqual(
    [gapHolds(2, 1), deadlinesBatch(0.5, 1)],
    [false, false],
    "the bounds are strict",
  );
  assert.deepEqual([gapHolds(0.49, 1), deadlinesBatch(0.49, 1)], [true, true]);
});

Deno.test("pollWait: without the gap, nothing is held and the deadline is the wake", () => {
  assert.deepEqual(pollWait(state({ sendIntervalMs: 5 })), { wakeMs: 100.5, holdMs: 0 });
});

Deno.test("pollWait: a held gap makes sockets wait for its end, not a deadline inside it", () => {
  const { wakeMs, holdMs } = pollWait(state({ sendIntervalMs: 1 }));
  assert.equal(wakeMs, 100.5, "the deadline is not moved");
  assert.ok(
    Math.abs(holdMs - 0.3) < 1e-9,
    `held ${holdMs} ms: until the deadline, not the gap's end`,
  );
  const late = pollWait(state({ sendIntervalMs: 1, deadlineMs: 130 }));
  assert.equal(late.wakeMs, 130);
  assert.ok(Math.abs(late.holdMs - 0.8) < 1e-9, `held ${late.holdMs} ms: until the gap's end`);
});

Deno.test("pollWait: batching deadlines wait for the gap's end", () => {
  const { wakeMs, holdMs } = pollWait(state({ sendIntervalMs: 0.2 }));
  assert.equal(wakeMs, 101, "the deadline moves to the gap's end");
  assert.ok(Math.abs(holdMs - 0.8) < 1e-9);
});

Deno.test("pollWait: a deadline already due wakes at once, even while batching", () => {
  assert.deepEqual(pollWait(state({ sendIntervalMs: 0.2, deadlineMs: 99 })), {
    wakeMs: 99,
    holdMs: 0,
  });
});

Deno.test("pollWait: eager and interrupted waits hold nothing back", () => {
  assert.equal(pollWait(state({ sendIntervalMs: 0.2, eager: true })).holdMs, 0);
  assert.equal(pollWait(state({ sendIntervalMs: 0.2, interrupted: true })).holdMs, 0);
  assert.equal(pollWait(state({ lastWakeMs: -Infinity })).holdMs, 0, "the first wake");
});

Deno.test("pollWait: a hold is at most MAX_WAIT_MS", () => {
  const { holdMs } = pollWait(state({ minGapMs: 500, sendIntervalMs: 100, deadlineMs: 10_000 }));
  assert.ok(Math.abs(holdMs - MAX_WAIT_MS) < 1e-9, `held ${holdMs} ms`);
});

Deno.test("pollTimeoutMs: until the wake, never negative, at most MAX_WAIT_MS, 0 when interrupted", () => {
  assert.ok(Math.abs(pollTimeoutMs(100.5, 100.2, false) - 0.3) < 1e-9);
  assert.equal(pollTimeoutMs(99, 100, false), 0);
  assert.equal(pollTimeoutMs(1_000, 100, false), MAX_WAIT_MS);
  assert.equal(pollTimeoutMs(1_000, 100, true), 0);
  assert.equal(pollTimeoutMs(NaN, 100, false), 0);
});

Deno.test("pollWait: deferred reads wait for the next deadline, at most readDeferMs after the wake", () => {
  const low = { sendIntervalMs: 1, readDeferMs: 2 }; // 1k/s: no gap
  const { wakeMs, holdMs } = pollWait(state({ ...low, deadlineMs: 101 }));
  assert.equal(wakeMs, 101, "the deadline is not moved");
  assert.ok(Math.abs(holdMs - 0.8) < 1e-9, `held ${holdMs} ms: sockets wait for the deadline`);
  const far = pollWait(state({ ...low, deadlineMs: 150 }));
  assert.equal(far.wakeMs, 150);
  assert.ok(Math.abs(far.holdMs - 1.8) < 1e-9, `held ${far.holdMs} ms: 2 ms after the last wake`);
  assert.equal(pollWait(state({ ...low, deadlineMs: 150, eager: true })).holdMs, 0, "eager");
  assert.equal(pollWait(state({ ...low, lastWakeMs: 90, deadlineMs: 150 })).holdMs, 0, "spent");
});

Deno.test("pollWait: deferred reads never shorten the gap, nor move a batched deadline", () => {
  // 10k/s: deadlines batch to the 1 ms gap's end; a deferral shorter than the gap keeps it.
  const batched = pollWait(state({ sendIntervalMs: 0.1, readDeferMs: 0.5, deadlineMs: 100.4 }));
  assert.equal(batched.wakeMs, 101);
  assert.ok(Math.abs(batched.holdMs - 0.8) < 1e-9, `held ${batched.holdMs} ms`);
  // 1.5k/s-like: the gap holds for sockets; a deadline beyond it, sockets wait for it.
  const gapped = pollWait(state({ sendIntervalMs: 1, readDeferMs: 2, deadlineMs: 101.5 }));
  assert.equal(gapped.wakeMs, 101.5);
  assert.ok(Math.abs(gapped.holdMs - 1.3) < 1e-9, `held ${gapped.holdMs} ms`);
});
