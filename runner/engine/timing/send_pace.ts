/**
 * The rate of sends, as the waker paces its wakes by it (`Waker.pace`): the mean interval between
 * the sends the dispatcher took over the last window of at least {@linkcode PACE_WINDOW_MS}, on
 * the clock. Counted, not taken from due times: a journey's later steps fall due between the
 * schedule's arrivals, and out of their order (a step is due at its previous step's completion),
 * so the gaps between successive due times, where a later one is earlier, no longer add up to the
 * time the sends took (at 5k journeys/s of two steps, the gaps read 0.13 ms between sends that
 * came every 0.1 ms).
 *
 * @module
 */

/** The shortest window a send rate is counted over (ms): 100 sends at 10k/s. */
export const PACE_WINDOW_MS = 10;
/**
 * The fewest sends a window counts: at low rates one short gap between random (Poisson) arrivals
 * must not read as a high rate.
 */
export const PACE_WINDOW_SENDS = 8;

/**
 * The mean interval between sends, counted over windows of at least {@linkcode PACE_WINDOW_MS}
 * and {@linkcode PACE_WINDOW_SENDS} sends.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { SendPace } from "./send_pace.ts";
 * const pace = new SendPace();
 * for (let k = 0; k <= 200; k++) pace.sent(k * 0.1); // 10k/s
 * assert.ok(Math.abs(pace.intervalMs - 0.1) < 1e-9);
 * for (let k = 1; k <= 8; k++) pace.sent(20 + k * 500); // then 2/s: 8 sends over 4 s
 * assert.ok(Math.abs(pace.intervalMs - 500) < 1e-9);
 * ```
 */
export class SendPace {
  /** The interval between sends over the last full window (ms); 0 until one was counted. */
  intervalMs = 0;
  #windowStartMs = NaN;
  #sends = 0;

  /** `count` sends were taken at `nowMs` (the clock's time, never decreasing). */
  sent(nowMs: number, count = 1): void {
    if (this.#windowStartMs !== this.#windowStartMs) {
      // The first send starts the first window: the interval runs from it.
      this.#windowStartMs = nowMs;
      return;
    }
    this.#sends += count;
    const elapsedMs = nowMs - this.#windowStartMs;
    if (elapsedMs < PACE_WINDOW_MS || this.#sends < PACE_WINDOW_SENDS) return;
    this.intervalMs = elapsedMs / this.#sends;
    this.#windowStartMs = nowMs;
    this.#sends = 0;
  }
}
