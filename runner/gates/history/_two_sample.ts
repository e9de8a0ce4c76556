/**
 * Two sides of a change compared: each side's mean and spread, Otava's Student t-test between
 * them, and the Welch interval of the relative change.
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
 * The zero floor: a relative change divides by max(|meanBefore|, ZERO_FLOOR × the larger mean),
 * so a change from zero (an error rate 0 → 0.2%) reads as +1000× (+100 000%), its largest value,
 * instead of dividing by zero.
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

/**
 * after.mean / before.mean − 1 with the 95% Welch interval of the difference of the means divided
 * by the same denominator (before's mean taken as known: its own uncertainty is in the Welch
 * interval's variance already). A side of one value borrows the other side's variance; the
 * denominator is floored at {@linkcode ZERO_FLOOR} of the larger mean.
 */
export function relativeChangeOf(before: Side, after: Side): RelativeChange {
  const difference = after.mean - before.mean;
  const denominator = floored(before.mean, after.mean);
  if (denominator === 0) return { relativeChange: 0, interval95: [0, 0] };
  const half = welchHalfWidth(before, after) / denominator;
  const relativeChange = difference / denominator;
  return { relativeChange, interval95: [relativeChange - half, relativeChange + half] };
}

/** max(|before|, ZERO_FLOOR × max(|before|, |after|)): the denominator of a relative change. */
export function floored(before: number, after: number): number {
  return Math.max(Math.abs(before), ZERO_FLOOR * Math.max(Math.abs(before), Math.abs(after)));
}

/** The half-width of the 95% Welch interval of after.mean − before.mean. */
function welchHalfWidth(before: Side, after: Side): number {
  const n1 = before.count;
  const n2 = after.count;
  if (n1 < 2 && n2 < 2) return Infinity;
  let var1 = n1 >= 2 ? before.squares / (n1 - 1) : NaN;
  let var2 = n2 >= 2 ? after.squares / (n2 - 1) : NaN;
  if (Number.isNaN(var1)) var1 = var2;
  if (Number.isNaN(var2)) var2 = var1;
  const a = var1 / n1;
  const b = var2 / n2;
  if (a + b === 0) return 0;
  const df = n1 < 2 || n2 < 2 ? n1 + n2 - 2 : (a + b) ** 2 / (a * a / (n1 - 1) + b * b / (n2 - 1));
  return tQuantile(0.975, df) * Math.sqrt(a + b);
}
