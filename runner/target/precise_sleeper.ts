/**
 * Many concurrent sleeps with sub-millisecond precision, on one {@linkcode Waker}: a min-heap of
 * deadlines, the waker armed to the earliest. The target uses it so its known-truth delays are
 * true to well under Deno's ~2 ms `setTimeout` granularity.
 *
 * @module
 */
import type { Clock, Waker } from "../engine/mod.ts";

interface Sleep {
  deadlineMs: number;
  resolve: (completed: boolean) => void;
}

/**
 * Sleeps until deadlines on the given clock.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createAtomicsWaker } from "../engine/timing/mod.ts";
 * import { PERFORMANCE_CLOCK } from "../engine/types.ts";
 * import { PreciseSleeper } from "./precise_sleeper.ts";
 * const sleeper = new PreciseSleeper(await createAtomicsWaker(), PERFORMANCE_CLOCK);
 * assert.equal(await sleeper.sleepUntil(performance.now() + 1.5), true); // slept to the deadline
 * sleeper.close();
 * ```
 */
export class PreciseSleeper {
  readonly #waker: Waker;
  readonly #clock: Clock;
  readonly #heap: Sleep[] = [];
  #running = false;
  #closed = false;

  constructor(waker: Waker, clock: Clock) {
    this.#waker = waker;
    this.#clock = clock;
  }

  /** Resolves true at `deadlineMs`, or false when the sleeper is closed first. */
  sleepUntil(deadlineMs: number): Promise<boolean> {
    if (this.#closed) return Promise.resolve(false);
    if (deadlineMs <= this.#clock.nowMs()) return Promise.resolve(true);
    return new Promise((resolve) => {
      push(this.#heap, { deadlineMs, resolve });
      if (!this.#running) void this.#run();
      else if (this.#heap[0].deadlineMs === deadlineMs) this.#waker.sleepUntil(deadlineMs);
    });
  }

  /** Ends every pending sleep (resolving false) and stops the waker. */
  close(): void {
    this.#closed = true;
    for (const sleep of this.#heap.splice(0)) sleep.resolve(false);
    this.#waker.close();
  }

  async #run(): Promise<void> {
    this.#running = true;
    try {
      while (this.#heap.length > 0 && !this.#closed) {
        await this.#waker.sleepUntil(this.#heap[0].deadlineMs);
        const now = this.#clock.nowMs();
        while (this.#heap.length > 0 && this.#heap[0].deadlineMs <= now) {
          pop(this.#heap).resolve(true);
        }
      }
    } finally {
      this.#running = false;
    }
  }
}

function push(heap: Sleep[], item: Sleep): void {
  heap.push(item);
  let i = heap.length - 1;
  while (i > 0) {
    const parent = (i - 1) >> 1;
    if (heap[parent].deadlineMs <= heap[i].deadlineMs) break;
    [heap[parent], heap[i]] = [heap[i], heap[parent]];
    i = parent;
  }
}

function pop(heap: Sleep[]): Sleep {
  const top = heap[0];
  const last = heap.pop()!;
  if (heap.length > 0) {
    heap[0] = last;
    let i = 0;
    while (true) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < heap.length && heap[l].deadlineMs < heap[m].deadlineMs) m = l;
      if (r < heap.length && heap[r].deadlineMs < heap[m].deadlineMs) m = r;
      if (m === i) break;
      [heap[m], heap[i]] = [heap[i], heap[m]];
      i = m;
    }
  }
  return top;
}
