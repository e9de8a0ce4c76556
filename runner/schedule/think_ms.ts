/**
 * A journey step's think time: the pause between the previous step's completion and this step's
 * due time (docs/decisions/journeys.md). A range is drawn uniformly from (seed, journey n, step
 * k) in closed form, as a var's value is drawn from (seed, n) (draw_values.ts): the same seed
 * thinks the same on every worker and shard, with nothing carried from one journey to the next.
 *
 * @module
 */
import type { PlanThink } from "../plan/mod.ts";
import { uniformAt } from "./draw_values.ts";

/** Above every var's stream (its index) and every data source's (1,000,000 + its index). */
const THINK_STREAM = 2_000_000;

/** The hash stream of step `k`'s think time: its own, so no var or data source draws alike. */
export function thinkStream(k: number): number {
  return THINK_STREAM + k;
}

/**
 * Step `k`'s think time in journey `n`, in ms: `minMs` when fixed (or none: 0), else a uniform
 * draw in [minMs, maxMs).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { thinkMs } from "./think_ms.ts";
 * assert.equal(thinkMs(7, 12, 1, { minMs: 50, maxMs: 50 }), 50);
 * assert.equal(thinkMs(7, 12, 1, undefined), 0);
 * const drawn = thinkMs(7, 12, 1, { minMs: 100, maxMs: 500 });
 * assert.ok(drawn >= 100 && drawn < 500);
 * assert.equal(thinkMs(7, 12, 1, { minMs: 100, maxMs: 500 }), drawn);
 * ```
 */
export function thinkMs(seed: number, n: number, k: number, think: PlanThink | undefined): number {
  if (think === undefined) return 0;
  const { minMs, maxMs } = think;
  if (maxMs === minMs) return minMs;
  return minMs + uniformAt(seed, thinkStream(k), n) * (maxMs - minMs);
}
