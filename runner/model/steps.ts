/**
 * A long pure computation in steps: a generator that yields between its units of work (a window
 * scanned, a change point tested), returning its value at the end. {@linkcode drained} runs one at
 * once; {@linkcode drainedUnless} lets the event loop run between steps, so a signal's listener
 * runs too, and stops at a stop (`tailgate history` on Ctrl-C).
 *
 * @module
 */

/** A computation of a `T` in steps: each `yield` ends one; the generator returns the `T`. */
export type Steps<T> = Generator<void, T, void>;

/**
 * Runs `steps` to its end, at once, and returns its value.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { drained } from "./steps.ts";
 * function* sum(values: number[]) {
 *   let total = 0;
 *   for (const v of values) (total += v, yield);
 *   return total;
 * }
 * assert.equal(drained(sum([1, 2, 3])), 6);
 * ```
 */
export function drained<T>(steps: Steps<T>): T {
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
  }
}

/** Options of {@linkcode drainedUnless}. */
export interface DrainOptions {
  /** Work between two turns of the event loop, in milliseconds (default 50). */
  sliceMs?: number;
  /** The clock, in milliseconds (default `performance.now`). */
  now?: () => number;
}

/**
 * Runs `steps` to its end, giving the event loop a turn (a timer's) whenever `sliceMs` of work
 * have passed since its last, so timers and signal listeners run meanwhile; stops between two
 * steps once `signal` is aborted (`stopped`, no value), never in the middle of one.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { drainedUnless } from "./steps.ts";
 * function* forever() {
 *   for (;;) yield;
 * }
 * const stop = new AbortController();
 * setTimeout(() => stop.abort(), 10);
 * assert.deepEqual(await drainedUnless(forever(), stop.signal, { sliceMs: 1 }), { stopped: true });
 * ```
 */
export async function drainedUnless<T>(
  steps: Steps<T>,
  signal: AbortSignal | undefined,
  options: DrainOptions = {},
): Promise<{ stopped: false; value: T } | { stopped: true }> {
  const now = options.now ?? (() => performance.now());
  const sliceMs = options.sliceMs ?? 50;
  let turn = now();
  for (;;) {
    if (signal?.aborted) {
      steps.return(undefined as T);
      return { stopped: true };
    }
    const next = steps.next();
    if (next.done) return { stopped: false, value: next.value };
    if (signal !== undefined && now() - turn >= sliceMs) {
      await new Promise((resolve) => setTimeout(resolve, 0));
      turn = now();
    }
  }
}
