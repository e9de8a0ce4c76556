/**
 * How many requests a percentile needs before it can be judged: at least `minTailSamples` requests
 * must lie beyond it, so n × (1 − q) ≥ minTailSamples (docs/gates.md).
 *
 * @module
 */

/** Requests beyond a percentile needed to judge it, unless the plan says otherwise. */
export const DEFAULT_MIN_TAIL_SAMPLES = 10;

/**
 * The smallest request count at which percentile `percentile` (in percent) has `minTailSamples`
 * requests beyond it.
 *
 * @example
 * ```ts
 * import { requiredRequests } from "./sample_sufficiency.ts";
 * requiredRequests(99.9); // 10000
 * requiredRequests(99.99); // 100000
 * ```
 */
export function requiredRequests(
  percentile: number,
  minTailSamples: number = DEFAULT_MIN_TAIL_SAMPLES,
): number {
  const tail = 1 - percentile / 100;
  // Round away float noise (1 - 0.999 is 0.0010000000000000009) before taking the ceiling.
  return Math.ceil(Number((minTailSamples / tail).toPrecision(12)));
}
