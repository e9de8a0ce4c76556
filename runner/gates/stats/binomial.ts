/**
 * Exact binomial tail probabilities, each term from ln C(n, k) and summed relative to the first,
 * so that n in the millions and tails down to the smallest double stay exact enough to compare
 * with a significance level (a tail below that reads 0). And the exact binomial interval.
 *
 * @module
 */
import { logGamma } from "./log_gamma.ts";

function logPmf(n: number, k: number, p: number): number {
  return logGamma(n + 1) - logGamma(k + 1) - logGamma(n - k + 1) + k * Math.log(p) +
    (n - k) * Math.log1p(-p);
}

function check(n: number, p: number): void {
  if (!(Number.isSafeInteger(n) && n >= 0)) {
    throw new RangeError(`n must be an integer >= 0, got ${n}`);
  }
  if (!(p >= 0 && p <= 1)) throw new RangeError(`p must be in [0, 1], got ${p}`);
}

/**
 * P(X ≤ k) for X ~ Binomial(n, p).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { binomialLowerTail } from "./binomial.ts";
 * assert.ok(Math.abs(binomialLowerTail(10, 0.5, 5) - 0.623046875) < 1e-12);
 * ```
 */
export function binomialLowerTail(n: number, p: number, k: number): number {
  check(n, p);
  if (k < 0) return 0;
  if (k >= n) return 1;
  k = Math.floor(k);
  if (p === 0) return 1;
  if (p === 1) return 0;
  if (k > n * p) return 1 - binomialUpperTail(n, p, k + 1);
  // Terms fall going down from k (k is below the mean): sum them until they no longer count.
  const first = logPmf(n, k, p);
  const ratio = Math.log(1 - p) - Math.log(p);
  let logTerm = first;
  let sum = 1; // in units of the first term
  for (let i = k; i > 0; i--) {
    logTerm += Math.log(i) - Math.log(n - i + 1) + ratio;
    const rel = Math.exp(logTerm - first);
    sum += rel;
    if (rel < sum * 1e-17) break;
  }
  return Math.min(1, Math.exp(first) * sum);
}

/**
 * P(X ≥ k) for X ~ Binomial(n, p).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { binomialUpperTail } from "./binomial.ts";
 * assert.ok(Math.abs(binomialUpperTail(10, 0.5, 8) - 0.0546875) < 1e-12);
 * ```
 */
export function binomialUpperTail(n: number, p: number, k: number): number {
  check(n, p);
  if (k <= 0) return 1;
  if (k > n) return 0;
  k = Math.ceil(k);
  if (p === 0) return 0;
  if (p === 1) return 1;
  if (k < n * p) return 1 - binomialLowerTail(n, p, k - 1);
  const first = logPmf(n, k, p);
  const ratio = Math.log(p) - Math.log(1 - p);
  let logTerm = first;
  let sum = 1;
  for (let i = k; i < n; i++) {
    logTerm += Math.log(n - i) - Math.log(i + 1) + ratio;
    const rel = Math.exp(logTerm - first);
    sum += rel;
    if (rel < sum * 1e-17) break;
  }
  return Math.min(1, Math.exp(first) * sum);
}

/**
 * The exact (Clopper–Pearson) `1 − alpha` confidence interval of a proportion from `k` successes
 * in `n` trials: the p at which observing k or more (for the lower end) or k or fewer (for the
 * upper end) has probability alpha / 2. Found by bisection.
 */
export function binomialInterval(
  k: number,
  n: number,
  alpha = 0.05,
): { low: number; high: number } {
  check(n, 0);
  if (!(Number.isSafeInteger(k) && k >= 0 && k <= n)) {
    throw new RangeError(`k must be an integer in [0, ${n}], got ${k}`);
  }
  if (n === 0) return { low: 0, high: 1 };
  const side = alpha / 2;
  // P(X >= k | p) rises with p: the lower end is where it reaches alpha / 2.
  const low = k === 0 ? 0 : bisect((p) => binomialUpperTail(n, p, k) >= side);
  // P(X <= k | p) falls with p: the upper end is where it drops to alpha / 2.
  const high = k === n ? 1 : bisect((p) => binomialLowerTail(n, p, k) <= side);
  return { low, high };
}

/** The smallest p in [0, 1] where the monotone predicate turns true (to ~1e-15). */
function bisect(isPast: (p: number) => boolean): number {
  let lo = 0;
  let hi = 1;
  for (let i = 0; i < 60; i++) {
    const mid = (lo + hi) / 2;
    if (isPast(mid)) hi = mid;
    else lo = mid;
  }
  return hi;
}
