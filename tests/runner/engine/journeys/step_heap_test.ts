import assert from "node:assert/strict";
import { StepHeap } from "../../../../runner/engine/journeys/step_heap.ts";
import { Prng } from "../../../../runner/schedule/prng.ts";

Deno.test("the step heap gives steps back earliest due first, past its first growth", () => {
  const heap = new StepHeap();
  const prng = new Prng(7);
  const due: number[] = [];
  for (let slot = 0; slot < 1_000; slot++) {
    const ms = Math.floor(prng.next() * 500);
    due[slot] = ms;
    heap.push(ms, slot);
  }
  const out: number[] = [];
  while (heap.length > 0) {
    const top = heap.topDueMs;
    const slot = heap.pop();
    assert.equal(due[slot], top);
    out.push(top);
  }
  assert.deepEqual(out, [...due].sort((a, b) => a - b));
  assert.equal(heap.pop(), -1);
  assert.equal(heap.topDueMs, Infinity);
});

Deno.test("the step heap interleaves pushes and pops", () => {
  const heap = new StepHeap();
  heap.push(50, 1);
  heap.push(20, 2);
  assert.equal(heap.pop(), 2);
  heap.push(10, 3);
  heap.push(60, 4);
  assert.deepEqual([heap.pop(), heap.pop(), heap.pop()], [3, 1, 4]);
});
