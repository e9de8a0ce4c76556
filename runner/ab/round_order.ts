/**
 * The order of base and head in each round: random, so neither side always runs first (a machine
 * warming up, or a neighbour that starts mid-round, would otherwise favour one), and reproducible
 * from a seed, which the result records. Pure.
 *
 * @module
 */
import type { AbSide } from "../model/mod.ts";

/**
 * A small seeded pseudo-random generator (mulberry32): numbers in [0, 1), the same sequence for
 * the same seed.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { mulberry32 } from "./round_order.ts";
 * const next = mulberry32(42);
 * assert.equal(next() === mulberry32(42)(), true);
 * ```
 */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The order of each of `rounds` rounds, from `seed`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { roundOrders } from "./round_order.ts";
 * assert.equal(roundOrders(3, 7).length, 3); // , each ["base", "head"] or ["head", "base"]
 * ```
 */
export function roundOrders(rounds: number, seed: number): Array<[AbSide, AbSide]> {
  const next = mulberry32(seed);
  return Array.from(
    { length: rounds },
    () =>
      next() < 0.5 ? ["base", "head"] as [AbSide, AbSide] : ["head", "base"] as [AbSide, AbSide],
  );
}
