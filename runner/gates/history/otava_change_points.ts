/**
 * Otava's own rule (apache-otava 0.8.0's `compute_change_points`), reproduced for comparison: the
 * split step, then its merge step with its magnitude test and no trends.
 *
 * @module
 */
import { type ChangeOptions, resolveChangeOptions } from "./series_change.ts";
import { otavaMagnitude } from "./_two_sample.ts";
import { pointBetween, splitStep, type WeakPoint } from "./_split_step.ts";

/**
 * The change points Otava reports for `values` (finite numbers, oldest first): each point's index
 * (the first value after it) and p-value, ascending. Otava's merge step is followed as it is
 * written: the point with the largest p-value is dropped while it is not below `maxPValue`, then
 * the one with the smallest magnitude while that is ≤ `minMagnitude`; after a drop Otava
 * recomputes the point that followed it and the one after that (not the one before it, whose
 * figures stay as they were: kept here too, so the two agree).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { otavaChangePoints } from "./otava_change_points.ts";
 * const values = Array.from({ length: 40 }, (_, i) => (i < 20 ? 100 : 150) + (i % 3));
 * assert.deepEqual(otavaChangePoints(values).map((point) => point.index), [20]);
 * ```
 */
export function otavaChangePoints(
  values: readonly number[],
  options?: ChangeOptions,
): { index: number; pValue: number }[] {
  const { maxPValue, windowRuns, minMagnitude } = resolveChangeOptions(options);
  checkFinite(values);
  const points = splitStep(values, windowRuns, maxPValue);
  while (points.length > 0) {
    let weakest = largestPValue(points);
    if (points[weakest].pValue < maxPValue) {
      weakest = smallestMagnitude(points);
      const { before, after } = points[weakest];
      if (otavaMagnitude(before, after) > minMagnitude) break;
    }
    points.splice(weakest, 1);
    for (const k of [weakest, weakest + 1]) {
      if (k < points.length) {
        const from = k === 0 ? 0 : points[k - 1].index;
        points[k] = pointBetween(
          values,
          from,
          points[k].index,
          points[k + 1]?.index ?? values.length,
        );
      }
    }
  }
  return points.map(({ index, pValue }) => ({ index, pValue }));
}

/** A RangeError unless every value is a finite number. */
export function checkFinite(values: readonly number[]): void {
  const bad = values.findIndex((value) => !Number.isFinite(value));
  if (bad >= 0) throw new RangeError(`values must be finite numbers, got ${values[bad]} at ${bad}`);
}

/** Python's max() by p-value: the first of the largest; a NaN first stays. */
function largestPValue(points: WeakPoint[]): number {
  let best = 0;
  for (let k = 1; k < points.length; k++) if (points[k].pValue > points[best].pValue) best = k;
  return best;
}

/** Python's min() by Otava's magnitude: the first of the smallest. */
function smallestMagnitude(points: WeakPoint[]): number {
  let best = 0;
  let smallest = otavaMagnitude(points[0].before, points[0].after);
  for (let k = 1; k < points.length; k++) {
    const magnitude = otavaMagnitude(points[k].before, points[k].after);
    if (magnitude < smallest) [best, smallest] = [k, magnitude];
  }
  return best;
}
