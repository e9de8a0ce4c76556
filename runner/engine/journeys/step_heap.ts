/**
 * The journeys' pending steps, by due time: a binary min-heap on typed arrays (like
 * request_queue.ts), so ten thousand journeys thinking at once allocate a few arrays, not ten
 * thousand objects. Each entry is a due time and a journey slot.
 *
 * @module
 */

/**
 * A min-heap of (due time, journey slot).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { StepHeap } from "./step_heap.ts";
 * const h = new StepHeap();
 * h.push(30, 1);
 * h.push(10, 2);
 * assert.equal(h.topDueMs, 10);
 * assert.equal(h.pop(), 2);
 * assert.equal(h.topDueMs, 30);
 * ```
 */
export class StepHeap {
  #due = new Float64Array(256);
  #slot = new Int32Array(256);
  #length = 0;

  /** Steps waiting. */
  get length(): number {
    return this.#length;
  }

  /** The earliest due time (Infinity when empty). */
  get topDueMs(): number {
    return this.#length === 0 ? Infinity : this.#due[0];
  }

  /** Adds a step of journey `slot` due at `dueMs`. */
  push(dueMs: number, slot: number): void {
    if (this.#length === this.#due.length) this.#grow();
    const due = this.#due;
    const slots = this.#slot;
    let i = this.#length++;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (due[parent] <= dueMs) break;
      due[i] = due[parent];
      slots[i] = slots[parent];
      i = parent;
    }
    due[i] = dueMs;
    slots[i] = slot;
  }

  /** Removes the earliest step and returns its journey slot (-1 when empty). */
  pop(): number {
    if (this.#length === 0) return -1;
    const due = this.#due;
    const slots = this.#slot;
    const top = slots[0];
    const n = --this.#length;
    const lastDue = due[n];
    const lastSlot = slots[n];
    let i = 0;
    while (true) {
      let child = 2 * i + 1;
      if (child >= n) break;
      if (child + 1 < n && due[child + 1] < due[child]) child++;
      if (due[child] >= lastDue) break;
      due[i] = due[child];
      slots[i] = slots[child];
      i = child;
    }
    due[i] = lastDue;
    slots[i] = lastSlot;
    return top;
  }

  #grow(): void {
    const due = new Float64Array(this.#due.length * 2);
    const slot = new Int32Array(this.#slot.length * 2);
    due.set(this.#due);
    slot.set(this.#slot);
    this.#due = due;
    this.#slot = slot;
  }
}
