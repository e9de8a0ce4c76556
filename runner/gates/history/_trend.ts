/**
 * A creep told from steps: the best "flat, line, flat" fit of a span of values (a ramp from run
 * `start` to run `end`, level before and after), its residual sum of squares beside the steps'
 * one, both judged by BIC; and the straight line over the ramp's own runs, which gives the trend's
 * figures (its ends, its relative change and interval on the log-ratio scale, its rise in the
 * values' unit, its slope's p-value).
 *
 * @module
 */
import { tCdf, tQuantile } from "../stats/mod.ts";
import {
  type AbsoluteChange,
  flooredPair,
  ratioChange,
  type RelativeChange,
} from "./_two_sample.ts";

/** The best ramp of a span: it rises (or falls) from `start` to `end`, flat on either side. */
export interface Ramp {
  start: number;
  end: number;
  /** Its residual sum of squares. */
  rss: number;
}

/**
 * The ramp of `values[from, to)` with the least squares, over every start < end in the span.
 * O(span²): each candidate's fit comes from prefix sums.
 */
export function bestRamp(values: readonly number[], from: number, to: number): Ramp | undefined {
  const m = to - from;
  if (m < 3) return undefined;
  let mean = 0;
  for (let i = from; i < to; i++) mean += values[i] / m;
  const sum = new Float64Array(m + 1); // Σ y_j, j < i (y centred, j local)
  const weighted = new Float64Array(m + 1); // Σ j·y_j, j < i
  let squares = 0;
  for (let j = 0; j < m; j++) {
    const y = values[from + j] - mean;
    sum[j + 1] = sum[j] + y;
    weighted[j + 1] = weighted[j] + j * y;
    squares += y * y;
  }
  let best: Ramp | undefined;
  for (let s = 0; s < m - 1; s++) {
    for (let e = s + 1; e < m; e++) {
      const length = e - s;
      const flatAfter = m - 1 - e;
      const sv = (length + 1) / 2 + flatAfter;
      const svv = (length + 1) * (2 * length + 1) / (6 * length) + flatAfter;
      const svy = (weighted[e + 1] - weighted[s] - s * (sum[e + 1] - sum[s])) / length +
        (sum[m] - sum[e + 1]);
      const suu = m - 2 * sv + svv;
      const suv = sv - svv;
      const suy = sum[m] - svy;
      const det = suu * svv - suv * suv;
      if (!(det > 1e-12 * m * m)) continue;
      const level1 = (svv * suy - suv * svy) / det;
      const level2 = (suu * svy - suv * suy) / det;
      const rss = Math.max(0, squares - level1 * suy - level2 * svy);
      if (best === undefined || rss < best.rss) best = { start: from + s, end: from + e, rss };
    }
  }
  return best;
}

/** BIC = m·ln(RSS/m) + parameters·ln(m), the residual floored so that a perfect fit is finite. */
export function bic(rss: number, count: number, parameters: number, scale: number): number {
  const floor = Number.EPSILON * Math.max(scale * scale, Number.MIN_VALUE) * count;
  return count * Math.log(Math.max(rss, floor) / count) + parameters * Math.log(count);
}

/** A straight line fitted to values[start..end]: its ends, its change and its slope's test. */
export interface TrendLine extends RelativeChange, AbsoluteChange {
  fittedStart: number;
  fittedEnd: number;
  pValue: number;
}

/**
 * Least squares over values[start..end] (≥ 3 values); undefined for fewer. The relative change is
 * fittedEnd / fittedStart − 1 (each end floored at a thousandth of the larger), its interval
 * ln(end / start) ± t · se by the delta method over the line's mean and slope, converted back:
 * within (−100%, +∞). The absolute change is the rise, with the slope's interval.
 */
export function trendLine(
  values: readonly number[],
  start: number,
  end: number,
): TrendLine | undefined {
  const m = end - start + 1;
  if (m < 3) return undefined;
  const centre = (start + end) / 2;
  let mean = 0;
  for (let i = start; i <= end; i++) mean += values[i] / m;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = start; i <= end; i++) {
    sxy += (i - centre) * (values[i] - mean);
    sxx += (i - centre) ** 2;
    syy += (values[i] - mean) ** 2;
  }
  const slope = sxy / sxx;
  const residual = Math.max(0, syy - slope * sxy) / (m - 2);
  const slopeError = Math.sqrt(residual / sxx);
  const fittedStart = mean + slope * (start - centre);
  const fittedEnd = mean + slope * (end - centre);
  const pValue = slopeError === 0
    ? (slope === 0 ? 1 : 0)
    : 2 * tCdf(-Math.abs(slope / slopeError), m - 2);
  const t = tQuantile(0.975, m - 2);
  const rise = slope * (end - start);
  const riseHalf = t * slopeError * (end - start);
  const absolute: AbsoluteChange = {
    absoluteChange: rise,
    absoluteInterval95: [rise - riseHalf, rise + riseHalf],
  };
  const [from, to] = flooredPair(fittedStart, fittedEnd);
  if (from === 0 || to === 0) {
    return { fittedStart, fittedEnd, pValue, relativeChange: 0, interval95: [0, 0], ...absolute };
  }
  // ln(to / from) as a function of the line's mean a and slope b (uncorrelated, the x centred).
  const half = (end - start) / 2;
  const byMean = 1 / to - 1 / from;
  const bySlope = half * (1 / to + 1 / from);
  const logError = Math.sqrt(residual * (byMean * byMean / m + bySlope * bySlope / sxx));
  return {
    fittedStart,
    fittedEnd,
    pValue,
    ...ratioChange(Math.log(to / from), t * logError),
    ...absolute,
  };
}
