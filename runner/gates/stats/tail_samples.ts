/**
 * Whether a run holds enough requests to judge a percentile: at least `minTail` requests must lie
 * beyond it. Consistent with {@linkcode requiredRequests}, the plan-time form of the same rule.
 *
 * @module
 */
import { DEFAULT_MIN_TAIL_SAMPLES, requiredRequests } from "../../plan/mod.ts";

export { requiredRequests };

/**
 * How many of `n` requests lie beyond percentile `percentile` (in percent): n × (1 − q/100), with
 * float noise rounded away (so 100 000 requests have exactly 10 beyond p99.99).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { tailSamples } from "./tail_samples.ts";
 * assert.equal(tailSamples(10_000, 99.9), 10);
 * assert.equal(tailSamples(500, 99), 5);
 * ```
 */
export function tailSamples(n: number, percentile: number): number {
  checkArguments(n, percentile);
  return Number((n * (1 - percentile / 100)).toPrecision(12));
}

/**
 * Whether `n` requests leave at least `minTail` beyond percentile `percentile` (in percent), that
 * is whether `n >= requiredRequests(percentile, minTail)`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isSufficient } from "./tail_samples.ts";
 * assert.equal(isSufficient(10_000, 99.9), true);
 * assert.equal(isSufficient(9_999, 99.9), false);
 * ```
 */
export function isSufficient(
  n: number,
  percentile: number,
  minTail: number = DEFAULT_MIN_TAIL_SAMPLES,
): boolean {
  checkArguments(n, percentile);
  if (!(minTail >= 0 && Number.isFinite(minTail))) {
    throw new RangeError(`minTail must be a finite number >= 0, got ${minTail}`);
  }
  if (minTail === 0) return true;
  if (percentile === 100) return false;
  return n >= requiredRequests(percentile, minTail);
}

function checkArguments(n: number, percentile: number): void {
  if (!(Number.isSafeInteger(n) && n >= 0)) {
    throw new RangeError(`n must be a non-negative integer, got ${n}`);
  }
  if (!(percentile >= 0 && percentile <= 100)) {
    throw new RangeError(`percentile must be in [0, 100], got ${percentile}`);
  }
}
