/**
 * Student's t distribution: its CDF through the regularized incomplete beta function (evaluated
 * by a continued fraction with the modified Lentz method) and its quantile by bisection on the
 * CDF. Quantiles are accurate to about 1e-10 up to 1e7 degrees of freedom and to 1e-7 beyond,
 * far beyond what a gate needs.
 *
 * @module
 */
import { logGamma } from "./log_gamma.ts";

const MAX_EXACT_DF = 1e8;
const MAX_FRACTION_TERMS = 100_000;
const MAX_BISECTIONS = 2_000;
const EPSILON = 1e-15;
const TINY = 1e-300;

/**
 * The CDF of Student's t distribution with `degreesOfFreedom` (> 0, may be fractional or
 * `Infinity` for the normal distribution).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { tCdf } from "./student_t.ts";
 * assert.equal(tCdf(0, 5), 0.5);
 * assert.equal(tCdf(1, 1), 0.75); // (Cauchy)
 * ```
 */
export function tCdf(t: number, degreesOfFreedom: number): number {
  const df = effectiveDf(degreesOfFreedom);
  if (Number.isNaN(t)) throw new RangeError("t must be a number, got NaN");
  if (t === Infinity) return 1;
  if (t === -Infinity) return 0;
  const tail = twoSidedTail(t, df) / 2;
  return t >= 0 ? 1 - tail : tail;
}

/**
 * The quantile of Student's t distribution: the t with `tCdf(t, degreesOfFreedom) === p`, for p
 * in (0, 1) and degreesOfFreedom > 0 (`Infinity` gives the normal quantile). One-sided:
 * `tQuantile(0.999, df)` bounds 99.9% of the distribution from above.
 */
export function tQuantile(p: number, degreesOfFreedom: number): number {
  const df = effectiveDf(degreesOfFreedom);
  if (!(p > 0 && p < 1)) throw new RangeError(`p must be in (0, 1), got ${p}`);
  if (p === 0.5) return 0;
  if (p < 0.5) return -tQuantile(1 - p, df);
  // Solve on the upper tail 1 − p, which keeps its precision where p itself is rounded to 1.
  const tail = 1 - p;
  const upperTail = (t: number) => twoSidedTail(t, df) / 2;
  let low = 0;
  let high = 1;
  for (let i = 0; i < MAX_BISECTIONS && upperTail(high) > tail; i++) high *= 2;
  for (let i = 0; i < MAX_BISECTIONS && high - low > 1e-13 * high; i++) {
    const mid = (low + high) / 2;
    if (upperTail(mid) > tail) low = mid;
    else high = mid;
  }
  return (low + high) / 2;
}

/**
 * The regularized incomplete beta function I_x(a, b) for x in [0, 1] and a, b > 0.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { regularizedIncompleteBeta } from "./student_t.ts";
 * assert.ok(Math.abs(regularizedIncompleteBeta(0.25, 1, 1) - 0.25) < 1e-12); // the uniform CDF
 * assert.ok(Math.abs(regularizedIncompleteBeta(0.5, 3, 3) - 0.5) < 1e-12); // symmetry
 * ```
 */
export function regularizedIncompleteBeta(x: number, a: number, b: number): number {
  if (!(a > 0 && b > 0 && Number.isFinite(a) && Number.isFinite(b))) {
    throw new RangeError(`a and b must be finite and > 0, got a=${a}, b=${b}`);
  }
  if (!(x >= 0 && x <= 1)) throw new RangeError(`x must be in [0, 1], got ${x}`);
  return incompleteBeta(x, 1 - x, a, b);
}

/** P(|T| > |t|) = I_x(df/2, 1/2) with x = df / (df + t²), 1 − x passed exactly for large df. */
function twoSidedTail(t: number, df: number): number {
  const square = t * t;
  return incompleteBeta(df / (df + square), square / (df + square), df / 2, 0.5);
}

/** I_x(a, b), given x and its complement y = 1 − x (each computed without cancellation). */
function incompleteBeta(x: number, y: number, a: number, b: number): number {
  if (x === 0) return 0;
  if (y === 0) return 1;
  // The continued fraction converges fast only below the mean a / (a + b); use symmetry above.
  if (x > (a + 1) / (a + b + 2)) return 1 - incompleteBeta(y, x, b, a);
  const logFront = a * logOf(x, y) + b * logOf(y, x) - logBeta(a, b);
  return Math.exp(logFront) * betaContinuedFraction(x, a, b) / a;
}

/** ln x, taken as ln(1 − y) near 1 where x itself has lost the digits y holds. */
function logOf(x: number, y: number): number {
  return x > 0.5 ? Math.log1p(-y) : Math.log(x);
}

/**
 * The continued fraction 1 / (1 + d1 / (1 + d2 / (1 + …))) of I_x(a, b), with
 * d(2m+1) = −(a+m)(a+b+m)x / ((a+2m)(a+2m+1)) and d(2m) = m(b−m)x / ((a+2m−1)(a+2m)),
 * evaluated front to back by the modified Lentz method.
 */
function betaContinuedFraction(x: number, a: number, b: number): number {
  let c = 1;
  let d = 1 / nonZero(1 - (a + b) * x / (a + 1)); // 1 + d1
  let value = d;
  for (let m = 1; m <= MAX_FRACTION_TERMS; m++) {
    const even = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m));
    d = 1 / nonZero(1 + even * d);
    c = nonZero(1 + even / c);
    value *= d * c;
    const odd = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1));
    d = 1 / nonZero(1 + odd * d);
    c = nonZero(1 + odd / c);
    const step = d * c;
    value *= step;
    if (Math.abs(step - 1) < EPSILON) return value;
  }
  throw new RangeError(`incomplete beta did not converge for x=${x}, a=${a}, b=${b}`);
}

function nonZero(x: number): number {
  return Math.abs(x) < TINY ? TINY : x;
}

function logBeta(a: number, b: number): number {
  const small = Math.min(a, b);
  const big = Math.max(a, b);
  if (big < 20) return logGamma(a) + logGamma(b) - logGamma(a + b);
  // ln Γ(big) − ln Γ(big + small) from Stirling's series, arranged so that nothing cancels:
  // (big − ½)·ln big − (big + small − ½)·ln(big + small) + small + corr(big) − corr(big + small).
  const sum = big + small;
  const difference = -(big - 0.5) * Math.log1p(small / big) - small * Math.log(sum) + small +
    stirlingCorrection(big) - stirlingCorrection(sum);
  return logGamma(small) + difference;
}

/** ln Γ(x) − ((x − ½)·ln x − x + ½·ln 2π): the tail of Stirling's series, for x >= 20. */
function stirlingCorrection(x: number): number {
  const inverseSquare = 1 / (x * x);
  return (1 / 12 - inverseSquare * (1 / 360 - inverseSquare * (1 / 1260 - inverseSquare / 1680))) /
    x;
}

/**
 * Checks df and caps it at {@linkcode MAX_EXACT_DF}: beyond it the t distribution is the normal to
 * within 1e-7 in its quantiles, while the incomplete beta loses digits as df grows without bound.
 */
function effectiveDf(df: number): number {
  if (!(df > 0)) throw new RangeError(`df must be > 0, got ${df}`);
  return Math.min(df, MAX_EXACT_DF);
}
