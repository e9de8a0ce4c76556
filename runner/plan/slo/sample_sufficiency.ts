/**
 * How many requests a percentile needs: for a pass at all under the decision rule
 * ({@linkcode requestsToPass}), and for a run-level value stable enough to compare with a history
 * (at least `minTailSamples` requests beyond it, n × (1 − q) ≥ minTailSamples; the regression
 * gate's rule). docs/gates.md.
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
 * import assert from "node:assert/strict";
 * import { requiredRequests } from "./sample_sufficiency.ts";
 * assert.equal(requiredRequests(99.9), 10000);
 * assert.equal(requiredRequests(99.99), 100000);
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

/**
 * The fewest requests with which percentile `percentile` (in percent) can pass at all: even with
 * no request beyond the bound, a pass needs the chance of seeing none, were the true percentile at
 * the bound, to fall to `alpha / 2` (q^n <= alpha / 2; the decision rule, docs/gates.md).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { requestsToPass } from "./sample_sufficiency.ts";
 * assert.equal(requestsToPass(99.9), 3688);
 * assert.equal(requestsToPass(99), 368);
 * ```
 */
export function requestsToPass(percentile: number, alpha = 0.05): number {
  const q = percentile / 100;
  return Math.ceil(Number((Math.log(alpha / 2) / Math.log(q)).toPrecision(12)));
}

/**
 * The fewest requests with which an upper-bound SLO's figure can pass at all: a percentile's
 * {@linkcode requestsToPass}, an error rate's the same at its allowed share (any count decides
 * `<= 0%`), two for a mean (an interval needs a spread), one for a max.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { requestsToPassSlo } from "./sample_sufficiency.ts";
 * assert.equal(requestsToPassSlo({ kind: "percentile", percentile: 99 }, 50_000), 368);
 * assert.equal(requestsToPassSlo({ kind: "error_rate" }, 0.01), 368);
 * ```
 */
export function requestsToPassSlo(
  metric: { kind: string; percentile?: number },
  bound: number,
  alpha = 0.05,
): number {
  if (metric.kind === "percentile") return requestsToPass(metric.percentile!, alpha);
  if (metric.kind === "error_rate") {
    return bound > 0 && bound < 1 ? requestsToPass(100 * (1 - bound), alpha) : 1;
  }
  return metric.kind === "mean" ? 2 : 1;
}
