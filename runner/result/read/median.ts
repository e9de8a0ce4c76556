/**
 * The median of a list of figures: the centre of a prediction bound (runner/gates/stats/) and the
 * figure the A/B report states for each side's rounds.
 *
 * @module
 */

/**
 * The median of `xs` (the mean of the middle two for an even count).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { median } from "./median.ts";
 * assert.equal(median([3, 1, 2, 10]), 2.5);
 * ```
 */
export function median(xs: readonly number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}
