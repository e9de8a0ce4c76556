/**
 * A small seeded pseudo-random generator (Mulberry32) and the exponential draws Poisson arrivals
 * need: the same seed gives the same sequence on every machine.
 *
 * @module
 */

/**
 * A seeded generator of uniform numbers in [0, 1).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Prng } from "./prng.ts";
 * const a = new Prng(42), b = new Prng(42);
 * assert.equal(a.next() === b.next(), true);
 * ```
 */
export class Prng {
  #state: number;

  constructor(seed: number) {
    this.#state = seed >>> 0;
  }

  /** The next uniform number in [0, 1). */
  next(): number {
    let t = (this.#state = (this.#state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An exponential draw with mean 1: the gap between unit-rate Poisson arrivals. */
  nextExponential(): number {
    return -Math.log(1 - this.next());
  }
}

/**
 * Derives an independent seed for a part (a stage) from the plan's seed.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { deriveSeed } from "./prng.ts";
 * assert.equal(deriveSeed(7, 0) !== deriveSeed(7, 1), true);
 * ```
 */
export function deriveSeed(seed: number, part: number): number {
  let h = Math.imul((seed >>> 0) ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(part + 1, 0xc2b2ae35);
  h ^= h >>> 16;
  h = Math.imul(h, 0x7feb352d);
  h ^= h >>> 15;
  return h >>> 0;
}
