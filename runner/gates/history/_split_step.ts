/**
 * The split step of Otava (Fleming et al. 2023, "Hunter"): E-divisive over sliding windows at a
 * relaxed p-value, the union of what the windows find (the weak change points), and each weak
 * point's two sides: the values back to the point before it and up to the point after it.
 *
 * @module
 */
import { divisiveChangePoints } from "./_e_divisive.ts";
import { otavaPValue, type Side, sideOf } from "./_two_sample.ts";
import { ranksOf } from "./_shuffle_scan.ts";
import { drained, type Steps } from "../../model/mod.ts";

/** A change point with its two sides and its p-value. */
export interface WeakPoint {
  index: number;
  before: Side;
  after: Side;
  pValue: number;
  /** The shuffles a shuffle-scan p-value was measured from (none for a t-test's). */
  shuffles?: number;
  /** True when no shuffle reached the split: `pValue` is the scan's floor, an upper bound. */
  atFloor?: boolean;
}

/** The split step's p-value, as Otava relaxes `maxPValue`: ×10 below 0.05, ×2 below 0.5. */
export function firstPassPValue(maxPValue: number): number {
  if (maxPValue < 0.05) return maxPValue * 10;
  return maxPValue < 0.5 ? maxPValue * 2 : maxPValue;
}

/**
 * The indexes of the weak change points of `values`, ascending: windows of `windowRuns` values,
 * each next window starting at the last point the window found or half a window on, whichever is
 * later. `ranked` runs E-divisive and its t-test on each window's ranks instead of its values.
 */
export function splitIndexes(
  values: readonly number[],
  windowRuns: number,
  maxPValue: number,
  ranked = false,
): number[] {
  return drained(splitIndexSteps(values, windowRuns, maxPValue, ranked));
}

/** {@linkcode splitIndexes} in steps: one a window. */
export function* splitIndexSteps(
  values: readonly number[],
  windowRuns: number,
  maxPValue: number,
  ranked = false,
): Steps<number[]> {
  const pass = firstPassPValue(maxPValue);
  const step = Math.floor(windowRuns / 2);
  const found = new Set<number>();
  let start = 0;
  while (start < values.length) {
    const end = Math.min(start + windowRuns, values.length);
    const window = values.slice(start, end);
    const local = divisiveChangePoints(ranked ? Array.from(ranksOf(window)) : window, pass);
    for (const index of local) found.add(index + start);
    const last = local.length > 0 ? local[local.length - 1] + start : 0;
    start = Math.max(last, start + step);
    yield;
  }
  return [...found].sort((a, b) => a - b);
}

/** Otava's weak points: {@linkcode splitIndexes} with each point's t-test against its neighbours. */
export function splitStep(
  values: readonly number[],
  windowRuns: number,
  maxPValue: number,
): WeakPoint[] {
  const indexes = splitIndexes(values, windowRuns, maxPValue);
  return indexes.map((index, k) =>
    pointBetween(values, k === 0 ? 0 : indexes[k - 1], index, indexes[k + 1] ?? values.length)
  );
}

/** The point at `index` with the sides [from, index) and [index, to), tested as Otava does. */
export function pointBetween(
  values: readonly number[],
  from: number,
  index: number,
  to: number,
): WeakPoint {
  const before = sideOf(values, from, index);
  const after = sideOf(values, index, to);
  return { index, before, after, pValue: otavaPValue(before, after) };
}
