/**
 * A whole number of milliseconds shared out in proportion to weights, exactly: the shares are
 * whole milliseconds that add up to the total (largest remainders), so times written with three
 * decimals of a second add up to the total as written. JUnit's case times use it: readers that add
 * up the cases (GitLab's test view, junitparser's merge) then show the run's time, not a multiple
 * of it. Pure.
 *
 * @module
 */

/**
 * Shares `totalMs` (rounded to a whole millisecond, at least 0) out over `weights` (each at least
 * 0; all 0 shares equally). Each share is at least 1 ms while the total allows it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { apportionMs } from "./apportion_ms.ts";
 * assert.deepEqual(apportionMs(10_000, [5_000, 5_000, 10_000]), [2500, 2500, 5000]);
 * assert.deepEqual(apportionMs(1_000, [1, 1, 1]), [334, 333, 333]);
 * ```
 */
export function apportionMs(totalMs: number, weights: readonly number[]): number[] {
  const n = weights.length;
  if (n === 0) return [];
  const total = Math.round(Math.max(0, totalMs));
  const clean = weights.map((w) => (Number.isFinite(w) && w > 0 ? w : 0));
  const sum = clean.reduce((a, b) => a + b, 0);
  const exact = clean.map((w) => (sum > 0 ? (total * w) / sum : total / n));
  const shares = exact.map(Math.floor);
  let left = total - shares.reduce((a, b) => a + b, 0);
  // The largest remainders get the milliseconds left, earlier cases first on a tie.
  const order = exact.map((x, i) => [x - Math.floor(x), i] as const)
    .sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  for (const [, i] of order) {
    if (left <= 0) break;
    shares[i]++;
    left--;
  }
  // No case reads as taking no time while the total allows: 1 ms from the largest share.
  if (total >= n) {
    for (let i = 0; i < n; i++) {
      if (shares[i] > 0) continue;
      const largest = shares.indexOf(Math.max(...shares));
      shares[largest]--;
      shares[i]++;
    }
  }
  return shares;
}
