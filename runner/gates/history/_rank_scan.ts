/**
 * A change point's significance calibrated for having been chosen: the point's rank statistic
 * (Mann–Whitney's, standardised) against the largest one over every split of the same values
 * shuffled. The t-test's p-value at the split E-divisive picked is the smallest of many and reads
 * a one-run spike of the real runs' p99 as a change; this one does neither: the split is one of
 * all the splits the shuffles try, and a rank cannot lie further out than first or last.
 *
 * @module
 */
import { Prng } from "../../schedule/mod.ts";

/** The fewest shuffles per test: p-values resolve to 1/2000, half the default 0.001. */
export const SHUFFLES = 1999;

/** Shuffles enough to resolve p-values to half of `maxPValue`. */
export function shufflesFor(maxPValue: number): number {
  return Math.max(SHUFFLES, Math.ceil(2 / maxPValue) - 1);
}

/**
 * The share of shuffles of values[from, to) whose best split (any τ in between) has a
 * standardised rank sum at least as far out as the split at `index`, counting the observed order
 * itself: (1 + count) / (1 + shuffles). Deterministic: the shuffles come from a fixed seed. Once
 * the count shows the p-value above `stopAbove`, it stops and returns the share so far.
 */
export function rankScanPValue(
  values: readonly number[],
  from: number,
  index: number,
  to: number,
  stopAbove = 1,
  shuffles = SHUFFLES,
): number {
  const n = to - from;
  if (index - from < 1 || to - index < 1) return 1;
  const ranks = ranksOf(values.slice(from, to));
  const scale = scales(n);
  let sum = 0;
  for (let k = 0; k < index - from; k++) sum += ranks[k];
  const observed = Math.abs(sum - (index - from) * (n + 1) / 2) * scale[index - from];
  if (!(observed > 0)) return 1;
  const random = new Prng(0x9e3779b9 ^ (n * 7919 + (index - from)));
  let count = 0;
  for (let s = 0; s < shuffles; s++) {
    for (let k = n - 1; k > 0; k--) {
      const j = Math.floor(random.next() * (k + 1));
      [ranks[k], ranks[j]] = [ranks[j], ranks[k]];
    }
    let prefix = 0;
    for (let k = 1; k < n; k++) {
      prefix += ranks[k - 1];
      if (Math.abs(prefix - k * (n + 1) / 2) * scale[k] >= observed * (1 - 1e-12)) {
        count++;
        break;
      }
    }
    if (1 + count > stopAbove * (1 + shuffles)) return (1 + count) / (2 + s);
  }
  return (1 + count) / (1 + shuffles);
}

/** 1 / the standard deviation of the rank sum of the first k of n (ties aside: a common factor). */
function scales(n: number): Float64Array {
  const scale = new Float64Array(n);
  for (let k = 1; k < n; k++) scale[k] = 1 / Math.sqrt(k * (n - k) * (n + 1) / 12);
  return scale;
}

/** The values' ranks (1-based), ties given their average rank. */
export function ranksOf(values: readonly number[]): Float64Array {
  const order = values.map((_, k) => k).sort((a, b) => values[a] - values[b]);
  const ranks = new Float64Array(values.length);
  for (let k = 0; k < order.length;) {
    let last = k;
    while (last + 1 < order.length && values[order[last + 1]] === values[order[k]]) last++;
    for (let q = k; q <= last; q++) ranks[order[q]] = (k + last) / 2 + 1;
    k = last + 1;
  }
  return ranks;
}
