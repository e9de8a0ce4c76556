/**
 * Holm's step-down: many checks judged at once while the chance of any false alarm among them
 * stays at alpha (Holm 1979). Uniformly more powerful than Bonferroni's alpha / m for every check,
 * with no assumption about how the checks depend on each other. Pure.
 *
 * @module
 */

/**
 * Holm's step-down over the checks with a p-value, so the whole run's chance of one false alarm
 * stays at `alpha` however many (stage, label, metric) pairs it judges: the check with the i-th
 * smallest p (from 0) of m is tested at alpha / (m − i), and testing stops at the first that
 * holds. Each check gets the confidence its prediction bound is drawn at, and whether Holm
 * rejected it (a check without a p-value is not tested: rejected stays true, its floor decides).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { holmLevels } from "./holm.ts";
 * assert.deepEqual(holmLevels([0.0004, 0.0009, undefined], 0.001).map((l) => l.rejected), [true, true, true]);
 * assert.deepEqual(holmLevels([0.0006, 0.0009], 0.001).map((l) => l.rejected), [false, false]);
 * ```
 */
export function holmLevels(
  ps: readonly (number | undefined)[],
  alpha: number,
): Array<{ confidence: number; rejected: boolean; checks: number }> {
  const judged = ps.flatMap((p, i) => p === undefined ? [] : [{ p, i }]).sort((a, b) => a.p - b.p);
  const m = judged.length;
  const out = ps.map(() => ({ confidence: 1 - alpha, rejected: true, checks: m }));
  let stopped = false;
  judged.forEach(({ p, i }, rank) => {
    const level = alpha / (m - rank);
    const rejected = !stopped && p <= level;
    if (!rejected) stopped = true;
    out[i] = { confidence: 1 - level, rejected, checks: m };
  });
  return out;
}
