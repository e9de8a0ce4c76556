import assert from "node:assert/strict";
import { nextStepDueMs, thinkMs } from "../../../runner/schedule/mod.ts";

Deno.test("step k+1 is due at step k's completion plus its think time", () => {
  assert.equal(nextStepDueMs(2_500.25, 1, 40, 1, { minMs: 100, maxMs: 100 }), 2_600.25);
  assert.equal(nextStepDueMs(2_500, 1, 40, 3, undefined), 2_500, "no think: due at once");
  const think = { minMs: 100, maxMs: 500 };
  const due = nextStepDueMs(2_500, 1, 40, 2, think);
  assert.equal(due, 2_500 + thinkMs(1, 40, 2, think), "the think drawn for journey 40, step 2");
  assert.ok(due >= 2_600 && due < 3_000);
});

Deno.test("a later completion moves the next step's due time by as much", () => {
  const think = { minMs: 100, maxMs: 500 };
  const early = nextStepDueMs(1_000, 5, 7, 1, think);
  const stalled = nextStepDueMs(2_000, 5, 7, 1, think);
  // The same think is drawn for both (it depends on n and k only): the stall is carried whole.
  assert.ok(Math.abs(stalled - early - 1_000) < 1e-9, `${stalled} − ${early}`);
});

Deno.test("the first step follows no step: it is due at its journey's fire time, not here", () => {
  assert.throws(() => nextStepDueMs(1_000, 5, 7, 0, undefined), RangeError);
  assert.throws(() => nextStepDueMs(1_000, 5, 7, 1.5, undefined), RangeError);
});
