/**
 * E-divisive means (Matteson & James 2014, distances to the power 1) inside one window, each
 * split tested as Otava tests it: the candidate split of every interval is the τ (with an end κ)
 * that maximises Q̂; the best candidate over the intervals is kept while Student's t-test between
 * its two sides is significant.
 *
 * @module
 */
import { otavaPValue, sideOf } from "./_two_sample.ts";

/** A candidate split: the first value after it and its Q̂. */
interface Candidate {
  index: number;
  qhat: number;
}

/**
 * The change points E-divisive finds in `window` (indexes into it, ascending): splits kept while
 * the best candidate's p-value is ≤ `maxPValue`.
 */
export function divisiveChangePoints(
  window: readonly number[],
  maxPValue: number,
): number[] {
  const columns = columnPrefixes(window);
  const cache = new Map<number, Candidate>();
  const points: number[] = [];
  for (;;) {
    const bounds = [0, ...points, window.length];
    let best: Candidate | undefined;
    let bestInterval = 0;
    for (let k = 0; k + 1 < bounds.length; k++) {
      const start = bounds[k];
      const end = bounds[k + 1];
      if (end - start < 2) continue;
      const key = start * (window.length + 1) + end;
      let candidate = cache.get(key);
      if (candidate === undefined) {
        candidate = bestCandidate(columns, start, end);
        cache.set(key, candidate);
      }
      if (best === undefined || candidate.qhat > best.qhat) {
        best = candidate;
        bestInterval = k;
      }
    }
    if (best === undefined) return points;
    const left = sideOf(window, bounds[bestInterval], best.index);
    const right = sideOf(window, best.index, bounds[bestInterval + 1]);
    if (!(otavaPValue(left, right) <= maxPValue)) return points;
    points.splice(bestInterval, 0, best.index);
  }
}

/** prefix[c][i] = Σ_{i' < i} |z[i'] − z[c]|: each column's distances summed from the top. */
function columnPrefixes(z: readonly number[]): Float64Array[] {
  return z.map((zc) => {
    const prefix = new Float64Array(z.length + 1);
    for (let i = 0; i < z.length; i++) prefix[i + 1] = prefix[i] + Math.abs(z[i] - zc);
    return prefix;
  });
}

/**
 * The τ in (start, end) and κ in (τ, end] maximising
 * Q̂ = 2/(n+m)·Σ|x−y| − 2m/((n+m)(n−1))·Σ_{i<k}|x_i−x_k| − 2n/((n+m)(m−1))·Σ_{j<k}|y_j−y_k|
 * for X = z[start, τ) (n values) and Y = z[τ, κ) (m values), a within-sum taken as 0 for a side
 * of one value. Ties go as numpy's argmax over Otava's (τ, κ) matrix goes: the first in τ, then
 * κ order, where each row past the first starts with the matrix's zeros below its diagonal.
 */
function bestCandidate(columns: Float64Array[], start: number, end: number): Candidate {
  let best: Candidate = { index: start + 1, qhat: -Infinity };
  let withinX = 0;
  for (let tau = start + 1; tau < end; tau++) {
    const n = tau - start;
    if (tau > start + 1) withinX += columns[tau - 1][tau - 1] - columns[tau - 1][start];
    if (tau > start + 1 && 0 > best.qhat) best = { index: tau, qhat: 0 };
    let between = 0;
    let withinY = 0;
    for (let kappa = tau + 1; kappa <= end; kappa++) {
      const column = columns[kappa - 1];
      between += column[tau] - column[start];
      withinY += column[kappa - 1] - column[tau];
      const m = kappa - tau;
      const total = n + m;
      let qhat = 2 / total * between;
      if (n > 1) qhat -= 2 * m / (total * (n - 1)) * withinX;
      if (m > 1) qhat -= 2 * n / (total * (m - 1)) * withinY;
      if (qhat > best.qhat) best = { index: tau, qhat };
    }
  }
  return best;
}
