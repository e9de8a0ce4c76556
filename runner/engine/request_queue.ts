/**
 * The FIFO of due requests waiting for a free connection: a growable ring of typed arrays, so a
 * long stall that queues 100k requests allocates a few arrays, not 100k objects.
 *
 * @module
 */

/**
 * A FIFO of requests by (index, fire time, stage, label).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { RequestQueue } from "./request_queue.ts";
 * const q = new RequestQueue();
 * q.push(1.5, 0, 2);
 * assert.equal(q.headFireMs, 1.5);
 * q.shift(); // fills q.fireMs, q.stageIndex, q.labelIndex
 * ```
 */
export class RequestQueue {
  #fire = new Float64Array(1024);
  #stage = new Int32Array(1024);
  #label = new Int32Array(1024);
  #index = new Float64Array(1024);
  #head = 0;
  #length = 0;
  /** The request taken by the last {@linkcode shift}. */
  fireMs = 0;
  stageIndex = 0;
  labelIndex = 0;
  /** The request's index in the schedule. */
  index = 0;

  /** Requests waiting. */
  get length(): number {
    return this.#length;
  }

  /** Fire time of the oldest waiting request (Infinity when empty). */
  get headFireMs(): number {
    return this.#length === 0 ? Infinity : this.#fire[this.#head];
  }

  /** Label of the oldest waiting request (-1 when empty). */
  get headLabelIndex(): number {
    return this.#length === 0 ? -1 : this.#label[this.#head];
  }

  /** Appends a request. */
  push(fireMs: number, stageIndex: number, labelIndex: number, index = 0): void {
    if (this.#length === this.#fire.length) this.#grow();
    const at = (this.#head + this.#length) % this.#fire.length;
    this.#index[at] = index;
    this.#fire[at] = fireMs;
    this.#stage[at] = stageIndex;
    this.#label[at] = labelIndex;
    this.#length++;
  }

  /** Removes the oldest request into `fireMs`, `stageIndex`, `labelIndex`; false when empty. */
  shift(): boolean {
    if (this.#length === 0) return false;
    this.fireMs = this.#fire[this.#head];
    this.stageIndex = this.#stage[this.#head];
    this.labelIndex = this.#label[this.#head];
    this.index = this.#index[this.#head];
    this.#head = (this.#head + 1) % this.#fire.length;
    this.#length--;
    return true;
  }

  #grow(): void {
    const size = this.#fire.length * 2;
    const fire = new Float64Array(size);
    const stage = new Int32Array(size);
    const label = new Int32Array(size);
    const index = new Float64Array(size);
    for (let i = 0; i < this.#length; i++) {
      const from = (this.#head + i) % this.#fire.length;
      index[i] = this.#index[from];
      fire[i] = this.#fire[from];
      stage[i] = this.#stage[from];
      label[i] = this.#label[from];
    }
    this.#fire = fire;
    this.#stage = stage;
    this.#label = label;
    this.#index = index;
    this.#head = 0;
  }
}
