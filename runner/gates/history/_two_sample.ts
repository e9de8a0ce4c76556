/**
 * Two sides of a change compared: each side's mean and spread, Otava's Student t-test between
 * them, the relative change of the means with its interval on the log-ratio scale, and the
 * difference of the means (an error rate's change, in points) with its Welch interval.
 *
 * @module
 */
import { tCdf, tQuantile } from "../stats/mod.ts";

/** A run of values `[start, end)`: how many, their mean and their population (ddof 0) spread. */
export interface Side {
  count: number;
  mean: number;
  /** Σ (x − mean)², so that var = squares / count (ddof 0) or / (count − 1) (ddof 1). */
  squares: number;
}

/**
 * The zero floor: a relative change compares max(mean, ZERO_FLOOR × the larger mean) on either
 * side, so a change from zero (an error rate 0 → 0.2%) reads as ×1000 (+99 900%), its largest
 * value, instead of dividing by zero; a fall to zero reads −99.9%.
 */
export const ZERO_FLOOR = 1e-3;

/** The side `values[start, end)`; shifted by its first value, so a constant side is exact. */
export function sideOf(values: readonly number[], start: number, end: number): Side {
  const count = end - start;
  if (count <= 0) return { count: 0, mean: NaN, squares: 0 };
  const shift = values[start];
  let sum = 0;
  for (let i = start; i < end; i++) sum += values[i] - shift;
  const offset = sum / count;
  let squares = 0;
  for (let i = start; i < end; i++) squares += (values[i] - shift - offset) ** 2;
  return { count, mean: shift + offset, squares };
}

/**
 * Otava's significance: Student's two-sample t-test (equal variances, two-sided) fed each side's
 * ddof-0 standard deviation where the test expects ddof 1, as Otava does; 1 when the sides hold
 * two values or fewer; NaN when both sides are constant and equal.
 */
export function otavaPValue(left: Side, right: Side): number {
  const n1 = left.count;
  const n2 = right.count;
  if (n1 + n2 <= 2) return 1;
  const var1 = n1 >= 2 ? left.squares / n1 : 0;
  const var2 = n2 >= 2 ? right.squares / n2 : 0;
  const df = n1 + n2 - 2;
  const pooled = ((n1 - 1) * var1 + (n2 - 1) * var2) / df;
  const difference = left.mean - right.mean;
  const scale = Math.sqrt(pooled * (1 / n1 + 1 / n2));
  if (scale === 0) return difference === 0 ? NaN : 0;
  return 2 * tCdf(-Math.abs(difference / scale), df);
}

/** Otava's magnitude: the larger of |after/before − 1| and |before/after − 1| (0 over a zero). */
export function otavaMagnitude(before: Side, after: Side): number {
  const forward = before.mean === 0 ? 0 : after.mean / before.mean - 1;
  const backward = after.mean === 0 ? 0 : before.mean / after.mean - 1;
  return Math.max(Math.abs(forward), Math.abs(backward));
}

/** A relative change and its 95% interval. */
export interface RelativeChange {
  relativeChange: number;
  interval95: [number, number];
}

/** A difference (after − before, in the values' unit) and its 95% interval. */
export interface AbsoluteChange {
  absoluteChange: number;
  absoluteInterval95: [number, number];
}

/**
 * after.mean / before.mean − 1, its 95% interval computed on the log-ratio scale and converted
 * back, so that it lies within (−100%, +∞): ln(after / before) ± t · √(s₁²/(n₁m₁²) + s₂²/(n₂m₂²))
 * (the delta method: each mean's relative standard error; Welch's degrees of freedom). A side of
 * one value borrows the other side's relative spread; each mean is floored at
 * {@linkcode ZERO_FLOOR} of the larger.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { relativeChangeOf, sideOf } from "./_two_sample.ts";
 * const change = relativeChangeOf(sideOf([100, 30, 170], 0, 3), sideOf([20, 25, 15], 0, 3));
 * assert.ok(Math.abs(change.relativeChange + 0.8) < 1e-12);
 * const [low, high] = change.interval95;
 * assert.ok(low > -1 && low < change.relativeChange && change.relativeChange < high);
 * ```
 */
export function relativeChangeOf(before: Side, after: Side): RelativeChange {
  const [from, to] = flooredPair(before.mean, after.mean);
  if (from === 0 || to === 0) return { relativeChange: 0, interval95: [0, 0] };
  const half = welchHalfWidth(
    [before.count, before.squares / (from * from)],
    [after.count, after.squares / (to * to)],
  );
  return ratioChange(Math.log(to / from), half);
}

/** A log ratio ± `half`, as a relative change and its interval: e^x − 1 at each. */
export function ratioChange(logRatio: number, half: number): RelativeChange {
  return {
    relativeChange: Math.expm1(logRatio),
    interval95: [Math.expm1(logRatio - half), Math.expm1(logRatio + half)],
  };
}

/**
 * after.mean − before.mean with its 95% Welch interval, in the values' unit (an error rate's
 * fraction: 0.002 is 0.2 points). A side of one value borrows the other side's variance.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { absoluteChangeOf, sideOf } from "./_two_sample.ts";
 * const change = absoluteChangeOf(sideOf([0, 0, 0], 0, 3), sideOf([0.002, 0.002], 0, 2));
 * assert.deepEqual(change, { absoluteChange: 0.002, absoluteInterval95: [0.002, 0.002] });
 * ```
 */
export function absoluteChangeOf(before: Side, after: Side): AbsoluteChange {
  const difference = after.mean - before.mean;
  const half = welchHalfWidth([before.count, before.squares], [after.count, after.squares]);
  return { absoluteChange: difference, absoluteInterval95: [difference - half, difference + half] };
}

/**
 * How far from no change an interval reaches, as a log ratio: the larger of |ln(1 + low)| and
 * |ln(1 + high)|. A rise by a factor and a fall by the same factor reach alike (+5% and −4.76%).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { logReach } from "./_two_sample.ts";
 * assert.ok(Math.abs(logReach([-0.01, 0.05]) - Math.log(1.05)) < 1e-12);
 * assert.ok(Math.abs(logReach([-1 / 21, 0]) - Math.log(1.05)) < 1e-12);
 * ```
 */
export function logReach([low, high]: readonly [number, number]): number {
  return Math.max(Math.abs(Math.log1p(low)), Math.abs(Math.log1p(high)));
}

/**
 * Both values floored at {@linkcode ZERO_FLOOR} × the larger of their sizes: the pair a relative
 * change compares (both 0 when both are).
 */
export function flooredPair(before: number, after: number): [number, number] {
  const floor = ZERO_FLOOR * Math.max(Math.abs(before), Math.abs(after));
  return [Math.max(before, floor), Math.max(after, floor)];
}

/**
 * The half-width of the 95% Welch interval of the difference of two means, each side given as
 * [count, Σ (x − mean)²] (in whatever scale the variances are wanted).
 */
function welchHalfWidth(
  [n1, squares1]: [number, number],
  [n2, squares2]: [number, number],
): number {
  if (n1 < 2 && n2 < 2) return Infinity;
  let var1 = n1 >= 2 ? squares1 / (n1 - 1) : NaN;
  let var2 = n2 >= 2 ? squares2 / (n2 - 1) : NaN;
  if (Number.isNaN(var1)) var1 = var2;
  if (Number.isNaN(var2)) var2 = var1;
  const a = var1 / n1;
  const b = var2 / n2;
  if (a + b === 0) return 0;
  const df = n1 < 2 || n2 < 2 ? n1 + n2 - 2 : (a + b) ** 2 / (a * a / (n1 - 1) + b * b / (n2 - 1));
  return tQuantile(0.975, df) * Math.sqrt(a + b);
}
