/**
 * When a journey's next step is due (docs/decisions/journeys.md, "Timing that stays honest"):
 * step k+1 at step k's completion plus step k+1's think time. Its response time is measured from
 * this due time, so a wait for a connection after it is part of it; the first step is due at its
 * journey's fire time, which the schedule gives.
 *
 * @module
 */
import type { PlanThink } from "../plan/mod.ts";
import { thinkMs } from "./think_ms.ts";

/**
 * The due time (ms, on the clock of `completedMs`) of step `k` (0-based, at least 1) of journey
 * `n`, whose step k−1 completed at `completedMs`; `think` is step k's.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { nextStepDueMs } from "./next_step_due.ts";
 * assert.equal(nextStepDueMs(1_000, 7, 12, 1, { minMs: 50, maxMs: 50 }), 1_050);
 * assert.equal(nextStepDueMs(1_000, 7, 12, 1, undefined), 1_000);
 * ```
 */
export function nextStepDueMs(
  completedMs: number,
  seed: number,
  n: number,
  k: number,
  think: PlanThink | undefined,
): number {
  if (!Number.isInteger(k) || k < 1) {
    throw new RangeError(
      `step ${k} follows no step: a journey's first step is due at its fire time`,
    );
  }
  return completedMs + thinkMs(seed, n, k, think);
}
