/**
 * A change point's significance calibrated for having been chosen, by shuffling: the point's
 * split is compared with the best split (any position) of the same values shuffled, on two
 * scales, the values themselves (the standardised difference of the means, which ranks splits as
 * Student's t does) and their ranks (Mann–Whitney's standardised rank sum). Each scale's p-value
 * is the share of shuffles whose best split reaches the observed one; the point's p-value is twice
 * the smaller (Bonferroni over the two scales). The t-test's p-value at the split E-divisive
 * picked is the smallest of many and reads a one-run spike of the real runs' p99 as a change;
 * these read neither: the split is one of all the splits the shuffles try, and a value or rank
 * at the end of a run is no more extreme than where a shuffle can put it.
 *
 * @module
 */
import { Prng } from "../../schedule/mod.ts";

/** The fewest shuffles per test: p-values resolve to 2/10000, a fifth of the default 0.001. */
export const SHUFFLES = 9999;

/** The most shuffles per test: p-values resolve to 2/100 000 at best, and no finer. */
export const MAX_SHUFFLES = 99_999;

/**
 * Shuffles enough to resolve p-values (twice the smaller share) to a fifth of `maxPValue`, within
 * {@linkcode MAX_SHUFFLES}: below p = 0.00002 no split can be shown, so none is a change.
 */
export function shufflesFor(maxPValue: number): number {
  return Math.min(MAX_SHUFFLES, Math.max(SHUFFLES, Math.ceil(10 / maxPValue) - 1));
}

/** A split's p-value from the shuffle scan, and whether it sits at the scan's floor. */
export interface ShuffleTest {
  /** Twice the smaller share of shuffles whose best split reached the observed one. */
  pValue: number;
  /** The shuffles the p-value was measured from. */
  shuffles: number;
  /**
   * True when no shuffle reached the split on one of the two scales: `pValue` is then
   * 2 / (1 + shuffles), the smallest these shuffles can show, an upper bound and not a measure.
   */
  atFloor: boolean;
}

/**
 * The p-value of the split of values[from, to) at `index` (see the module). Deterministic: the
 * shuffles come from a fixed seed. Once both shares are past `stopAbove` / 2 it stops and returns
 * the shares so far; when no shuffle has reached the split after 3 / `stopAbove` − 1 of them, it
 * stops too and returns 2 / (1 + that many), at the floor: 2 / 3000 = 0.00067 from 2999 shuffles
 * at the default p ≤ 0.001, which says "at most", not "measured".
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { shuffleScan } from "./_shuffle_scan.ts";
 * const values = Array.from({ length: 60 }, (_, i) => (i < 30 ? 100 : 130) + (i % 5));
 * assert.deepEqual(shuffleScan(values, 0, 30, 60, 0.001), {
 *   pValue: 2 / 3000,
 *   shuffles: 2999,
 *   atFloor: true,
 * });
 * ```
 */
export function shuffleScan(
  values: readonly number[],
  from: number,
  index: number,
  to: number,
  stopAbove = 1,
  shuffles = SHUFFLES,
): ShuffleTest {
  const n = to - from;
  const split = index - from;
  const none = { pValue: 1, shuffles: 0, atFloor: false };
  if (split < 1 || to - index < 1) return none;
  const scales = [values.slice(from, to), Array.from(ranksOf(values.slice(from, to)))];
  const weights = new Float64Array(n);
  for (let k = 1; k < n; k++) weights[k] = Math.sqrt(n / (k * (n - k)));
  const means = scales.map((scale) => scale.reduce((sum, value) => sum + value, 0) / n);
  const observed = scales.map((scale, s) => {
    let sum = 0;
    for (let k = 0; k < split; k++) sum += scale[k] - means[s];
    return Math.abs(sum) * weights[split] * (1 - 1e-12);
  });
  if (!(observed[0] > 0 || observed[1] > 0)) return none;
  const order = Int32Array.from({ length: n }, (_, k) => k);
  const random = new Prng(0x9e3779b9 ^ (n * 7919 + split));
  const counts = [0, 0];
  const stop = stopAbove / 2 * (1 + shuffles);
  const firstLook = Math.min(shuffles, Math.ceil(3 / stopAbove) - 1);
  const result = (done: number): ShuffleTest => {
    const fewer = Math.min(counts[0], counts[1]);
    return {
      pValue: Math.min(1, 2 * (1 + fewer) / (1 + done)),
      shuffles: done,
      atFloor: fewer === 0,
    };
  };
  for (let done = 0; done < shuffles; done++) {
    for (let k = n - 1; k > 0; k--) {
      const j = Math.floor(random.next() * (k + 1));
      [order[k], order[j]] = [order[j], order[k]];
    }
    for (let s = 0; s < 2; s++) {
      const scale = scales[s];
      const mean = means[s];
      let sum = 0;
      for (let k = 1; k < n; k++) {
        sum += scale[order[k - 1]] - mean;
        if (Math.abs(sum) * weights[k] >= observed[s]) {
          counts[s]++;
          break;
        }
      }
    }
    if (1 + counts[0] > stop && 1 + counts[1] > stop) return result(done + 1);
    if (done + 1 === firstLook && Math.min(counts[0], counts[1]) === 0) return result(firstLook);
  }
  return result(shuffles);
}

/** {@linkcode shuffleScan}'s p-value alone. */
export function shuffleScanPValue(
  values: readonly number[],
  from: number,
  index: number,
  to: number,
  stopAbove = 1,
  shuffles = SHUFFLES,
): number {
  return shuffleScan(values, from, index, to, stopAbove, shuffles).pValue;
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
