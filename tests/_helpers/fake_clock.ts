/**
 * A hand-driven {@linkcode Clock} for tests: time moves only when the test says so.
 *
 * @module
 */
import type { Clock } from "../../runner/engine/types.ts";

/**
 * A monotonic clock that stands still until {@linkcode FakeClock.advance} or
 * {@linkcode FakeClock.set} moves it; listeners hear every move (ManualWaker uses this).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { FakeClock } from "./fake_clock.ts";
 * const clock = new FakeClock(100);
 * clock.advance(2.5);
 * assert.equal(clock.nowMs(), 102.5);
 * ```
 */
export class FakeClock implements Clock {
  #nowMs: number;
  readonly #listeners = new Set<(nowMs: number) => void>();

  constructor(startMs = 0) {
    if (!Number.isFinite(startMs)) throw new RangeError(`start must be finite, got ${startMs}`);
    this.#nowMs = startMs;
  }

  /** The current fake time, ms. */
  nowMs(): number {
    return this.#nowMs;
  }

  /** Moves the clock forward by `ms` (>= 0) and tells the listeners. */
  advance(ms: number): void {
    if (!(ms >= 0) || !Number.isFinite(ms)) {
      throw new RangeError(`a monotonic clock only moves forward; advance(${ms})`);
    }
    this.set(this.#nowMs + ms);
  }

  /** Moves the clock to `ms` (not earlier than now) and tells the listeners. */
  set(ms: number): void {
    if (!(ms >= this.#nowMs) || !Number.isFinite(ms)) {
      throw new RangeError(`a monotonic clock only moves forward; set(${ms}) at ${this.#nowMs}`);
    }
    this.#nowMs = ms;
    for (const listener of [...this.#listeners]) listener(ms);
  }

  /** Calls `listener` after every move; returns the function that unsubscribes it. */
  onChange(listener: (nowMs: number) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}
