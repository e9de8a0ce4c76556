/**
 * A {@linkcode Waker} for tests, driven by a {@linkcode FakeClock}: a sleep resolves when the
 * clock is moved to or past its deadline, so dispatcher tests run without real sleeping.
 *
 * @module
 */
import type { FakeClock } from "./fake_clock.ts";
import type { Waker } from "../../runner/engine/types.ts";

/**
 * Resolves the pending sleep once the fake clock reaches its deadline, on `interrupt()` or on
 * `close()`. Like the real waker, a new `sleepUntil` while a sleep is pending moves that sleep's
 * deadline and returns the same promise, and a deadline already reached resolves at once.
 */
export class ManualWaker implements Waker {
  readonly #clock: FakeClock;
  readonly #unsubscribe: () => void;
  #pending: { resolve: () => void; promise: Promise<void>; deadlineMs: number } | undefined;
  #sleepWaiters: ((deadlineMs: number) => void)[] = [];
  #closed = false;
  /** Calls of `sleepUntil`. */
  sleeps = 0;
  /** Calls of `sleepUntil` that asked to be woken by ready I/O at once (`eager`). */
  eagerSleeps = 0;
  /** Sleeps ended by `interrupt()` (or `close()`). */
  interrupts = 0;

  constructor(clock: FakeClock) {
    this.#clock = clock;
    this.#unsubscribe = clock.onChange((nowMs) => {
      if (this.#pending && nowMs >= this.#pending.deadlineMs) this.#settle();
    });
  }

  /** Deadline of the pending sleep, or undefined when none is pending. */
  get pendingDeadlineMs(): number | undefined {
    return this.#pending?.deadlineMs;
  }

  sleepUntil(deadlineMs: number, eager = false): Promise<void> {
    this.sleeps++;
    if (eager) this.eagerSleeps++;
    for (const notify of this.#sleepWaiters.splice(0)) notify(deadlineMs);
    if (this.#closed || deadlineMs <= this.#clock.nowMs()) {
      this.#settle();
      return Promise.resolve();
    }
    if (!this.#pending) {
      const { promise, resolve } = Promise.withResolvers<void>();
      this.#pending = { promise, resolve, deadlineMs };
    }
    this.#pending.deadlineMs = deadlineMs;
    return this.#pending.promise;
  }

  interrupt(): void {
    if (!this.#pending) return;
    this.interrupts++;
    this.#settle();
  }

  close(): void {
    this.interrupt();
    this.#closed = true;
    this.#unsubscribe();
  }

  /** Resolves with the deadline of the next `sleepUntil` call (for test drivers). */
  nextSleep(): Promise<number> {
    return new Promise((resolve) => this.#sleepWaiters.push(resolve));
  }

  /** Moves the clock to the pending deadline; false (and no move) when nothing is pending. */
  advanceToDeadline(): boolean {
    const deadlineMs = this.#pending?.deadlineMs;
    if (deadlineMs === undefined) return false;
    this.#clock.set(Math.max(deadlineMs, this.#clock.nowMs()));
    return true;
  }

  #settle(): void {
    const pending = this.#pending;
    this.#pending = undefined;
    pending?.resolve();
  }
}
