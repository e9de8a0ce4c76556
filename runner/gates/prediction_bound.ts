/**
 * The regression gate's statistics: a one-sided prediction bound for the next run's value of a
 * run-level metric (a percentile, a throughput), from the values of past runs. Latencies and rates
 * are skewed and positive, so the bound is computed on log(value), where run-to-run noise is
 * closer to normal and symmetric, then mapped back.
 *
 * @module
 */
import { tQuantile } from "./student_t.ts";

/** Past values used at most: the last 30, so an old regime cannot anchor the bound forever. */
export const MAX_HISTORY_RUNS = 30;

/** Fewest past values that give a bound: two leave one degree of freedom and a useless t. */
export const MIN_HISTORY_RUNS = 3;

/** One-sided prediction bounds for the next run's value, in the values' own unit. */
export interface PredictionBounds {
  /** A new value above this is a regression for metrics where higher is worse (latency). */
  readonly upper: number;
  /** A new value below this is a regression for metrics where lower is worse (throughput). */
  readonly lower: number;
  /** How many past values the bounds rest on. */
  readonly n: number;
}

/**
 * One-sided prediction bounds at `confidence` for a new value, from past values `values` (all
 * > 0, oldest first; only the last {@linkcode MAX_HISTORY_RUNS} count). With m and s the mean and
 * sample standard deviation of log(value) over N values and t = tQuantile(confidence, N − 1):
 * upper = exp(m + t·s·√(1 + 1/N)) and lower = exp(m − t·s·√(1 + 1/N)).
 * A history without spread bounds the next value to exactly the repeated value.
 * `undefined` when fewer than {@linkcode MIN_HISTORY_RUNS} values are given.
 *
 * @example
 * ```ts
 * import { predictionBounds } from "./prediction_bound.ts";
 * const p99Ms = [120, 118, 125, 121, 119, 123];
 * const bounds = predictionBounds(p99Ms);
 * // { upper: 138.69…, lower: 105.53…, n: 6 }: a new p99 of 150 ms would be a regression
 * ```
 */
export function predictionBounds(
  values: readonly number[],
  confidence = 0.999,
): PredictionBounds | undefined {
  if (!(confidence > 0.5 && confidence < 1)) {
    throw new RangeError(`confidence must be in (0.5, 1), got ${confidence}`);
  }
  for (const value of values) {
    if (!(value > 0 && Number.isFinite(value))) {
      throw new RangeError(`values must be finite and > 0, got ${value}`);
    }
  }
  const recent = values.slice(-MAX_HISTORY_RUNS);
  const n = recent.length;
  if (n < MIN_HISTORY_RUNS) return undefined;
  const logs = recent.map(Math.log);
  const mean = logs.reduce((sum, x) => sum + x, 0) / n;
  const variance = logs.reduce((sum, x) => sum + (x - mean) ** 2, 0) / (n - 1);
  const margin = tQuantile(confidence, n - 1) * Math.sqrt(variance) * Math.sqrt(1 + 1 / n);
  if (margin === 0) {
    // No spread: exp(mean of logs) can land an ulp below the repeated value and flag it.
    return { upper: Math.max(...recent), lower: Math.min(...recent), n };
  }
  return { upper: Math.exp(mean + margin), lower: Math.exp(mean - margin), n };
}
