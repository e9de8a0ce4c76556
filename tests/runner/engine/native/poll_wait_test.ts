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
