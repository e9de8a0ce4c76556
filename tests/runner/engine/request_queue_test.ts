import assert from "node:assert/strict";
import { RequestQueue } from "../../../runner/engine/request_queue.ts";

/** Shifts everything out as [fireMs, stageIndex, labelIndex] triples. */
function drain(q: RequestQueue): Array<[number, number, number]> {
  const out: Array<[number, number, number]> = [];
  while (q.shift()) out.push([q.fireMs, q.stageIndex, q.labelIndex]);
  return out;
}

Deno.test("an empty queue has no head and shift() reports false", () => {
  const q = new RequestQueue();
  assert.equal(q.length, 0);
  assert.equal(q.headFireMs, Infinity);
  assert.equal(q.headLabelIndex, -1);
  assert.equal(q.shift(), false);
  q.push(2.5, 1, 3);
  q.shift();
  assert.equal(q.headFireMs, Infinity, "empty again after the last shift");
  assert.equal(q.headLabelIndex, -1);
});

Deno.test("requests leave in the order they came, with their stage and label", () => {
  const q = new RequestQueue();
  q.push(1.5, 0, 2);
  q.push(0.25, 1, 0);
  assert.equal(q.headFireMs, 1.5);
  assert.equal(q.headLabelIndex, 2);
  assert.equal(q.length, 2);
  assert.deepEqual(drain(q), [[1.5, 0, 2], [0.25, 1, 0]]);
});

Deno.test("order holds when the queue grows far beyond its first 1024 slots", () => {
  const q = new RequestQueue();
  const n = 5000;
  for (let i = 0; i < n; i++) q.push(i * 0.5, i % 3, i % 7);
  assert.equal(q.length, n);
  const out = drain(q);
  assert.equal(out.length, n);
  out.forEach(([fireMs, stage, label], i) =>
    assert.deepEqual([fireMs, stage, label], [i * 0.5, i % 3, i % 7])
  );
});

Deno.test("order holds when the ring wraps around and then grows while wrapped", () => {
  const q = new RequestQueue();
  let next = 0;
  let expected = 0;
  // Move the head to the middle of the ring, then fill it past the end so the data wraps.
  for (let i = 0; i < 1000; i++) q.push(next++, 0, 0);
  for (let i = 0; i < 700; i++) {
    assert.ok(q.shift());
    assert.equal(q.fireMs, expected++);
  }
  for (let i = 0; i < 724; i++) q.push(next++, 1, 1); // exactly full: 1024 waiting, wrapped
  assert.equal(q.length, 1024);
  assert.equal(q.headFireMs, 700);
  for (let i = 0; i < 2000; i++) q.push(next++, 2, i % 5); // grows from a wrapped state
  assert.equal(q.length, 3024);
  // Interleave shifts and pushes across the grown ring.
  for (let round = 0; round < 3000; round++) {
    assert.equal(q.headFireMs, expected);
    assert.ok(q.shift());
    assert.equal(q.fireMs, expected++);
    if (round % 2 === 0) q.push(next++, 3, 4);
  }
  const rest = drain(q).map(([fireMs]) => fireMs);
  assert.deepEqual(rest, Array.from({ length: next - expected }, (_, i) => expected + i));
});
