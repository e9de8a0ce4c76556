/**
 * A percentile and its distribution-free confidence interval when some requests failed: a failed
 * request met no latency bound, so it counts as a value beyond every recorded one (censored), never
 * as a fast sample. The interval's ends are order statistics at ranks from the exact binomial
 * distribution (the number of values at or below the true q-quantile is Binomial(n, q)).
 *
 * @module
 */
import type { Histogram } from "../../hdr/mod.ts";
import { binomialLowerTail, binomialUpperTail } from "./binomial.ts";

/** A percentile of successful latencies plus censored failures, with its interval. */
export interface CensoredPercentile {
  /** Every judged request: successful ones plus failures. */
  n: number;
  failures: number;
  /** The point estimate (us); Infinity when the percentile falls among the failures. */
  estimateUs: number;
  /**
   * Lower end (us): the lowest value the bucket at the lower rank can hold, 0 when the sample is
   * too small to bound the percentile from below.
   */
  lowUs: number;
  /** Upper end (us): the bucket's highest value; Infinity among the failures or beyond the sample. */
  highUs: number;
}

/**
 * The ranks (1 = smallest) bracketing the q-quantile with confidence `1 − alpha`, `alpha / 2` on
 * each side: `low` is 0 and `high` is n + 1 when the sample cannot bound that side.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { confidenceRanks } from "./censored_percentile.ts";
 * assert.deepEqual(confidenceRanks(100, 0.5), { low: 40, high: 61 });
 * ```
 */
export function confidenceRanks(
  n: number,
  q: number,
  alpha = 0.05,
): { low: number; high: number } {
  if (!(q > 0 && q <= 1)) throw new RangeError(`q must be in (0, 1], got ${q}`);
  const side = alpha / 2;
  // low: the largest r with P(Bin(n, q) <= r - 1) <= side (P(x(r) > quantile) <= side).
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (binomialLowerTail(n, q, mid - 1) <= side) lo = mid;
    else hi = mid - 1;
  }
  const low = lo;
  // high: the smallest r with P(Bin(n, q) >= r) <= side (P(x(r) < quantile) <= side).
  lo = 1;
  hi = n + 1;
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    if (binomialUpperTail(n, q, mid) <= side) hi = mid;
    else lo = mid + 1;
  }
  return { low, high: lo };
}

/**
 * The percentile `percentile` (in percent, in (0, 100)) of `h` with `failures` censored values
 * beyond every recorded one, and its `1 − alpha` confidence interval.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createHistogram } from "../../hdr/mod.ts";
 * import { censoredPercentile } from "./censored_percentile.ts";
 * const h = createHistogram();
 * for (let v = 1; v <= 95; v++) h.recordValue(v);
 * assert.equal(censoredPercentile(h, 5, 99).estimateUs, Infinity); // 5 of 100 requests failed
 * ```
 */
export function censoredPercentile(
  h: Histogram,
  failures: number,
  percentile: number,
  alpha = 0.05,
): CensoredPercentile {
  if (!(percentile > 0 && percentile < 100)) {
    throw new RangeError(`percentile must be in (0, 100), got ${percentile}`);
  }
  if (!(Number.isSafeInteger(failures) && failures >= 0)) {
    throw new RangeError(`failures must be an integer >= 0, got ${failures}`);
  }
  const ok = h.totalCount;
  const n = ok + failures;
  if (n === 0) return { n, failures, estimateUs: 0, lowUs: 0, highUs: Infinity };
  const q = percentile / 100;
  const ranks = confidenceRanks(n, q, alpha);
  // HdrHistogram's rank for a percentile: the first value whose cumulative count reaches q·n.
  const estimateRank = Math.max(1, Math.ceil(Number((q * n).toPrecision(12))));
  const wanted = [ranks.low, estimateRank, ranks.high];
  const found = bucketsAtRanks(h, wanted);
  return {
    n,
    failures,
    lowUs: ranks.low < 1 ? 0 : ranks.low > ok ? Infinity : found[0].lowestUs,
    estimateUs: estimateRank > ok ? Infinity : found[1].valueUs,
    highUs: ranks.high > ok ? Infinity : found[2].valueUs,
  };
}

/** The bucket holding each rank (ranks outside [1, totalCount] get a zero bucket). */
function bucketsAtRanks(
  h: Histogram,
  ranks: readonly number[],
): { valueUs: number; lowestUs: number }[] {
  const out = ranks.map(() => ({ valueUs: 0, lowestUs: 0 }));
  let cumulative = 0;
  for (const bucket of h.recordedValues()) {
    const before = cumulative;
    cumulative += bucket.count;
    ranks.forEach((r, i) => {
      if (r > before && r <= cumulative) out[i] = bucket;
    });
  }
  return out;
}
