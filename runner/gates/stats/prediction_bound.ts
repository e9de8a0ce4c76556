/**
 * The regression gate's statistics: a one-sided prediction bound for the next run's value of a
 * run-level metric (a percentile, a throughput), from the values of past runs, and the p-value of
 * a new value against it. Latencies and rates are skewed and positive, so everything is computed
 * on log(value), where run-to-run noise is closer to normal and symmetric, then mapped back. The
 * centre is the median and the spread 1.4826 × the median absolute deviation (the standard
 * deviation's robust stand-in for normal data), so one outlier run in the history can neither drag
 * the centre nor widen the bound until every regression hides under it.
 *
 * @module
 */
import { median } from "../../result/mod.ts";
import { tCdf, tQuantile } from "./student_t.ts";

/** Past values used at most: the last 30, so an old regime cannot anchor the bound forever. */
export const MAX_HISTORY_RUNS = 30;

/** Fewest past values that give a bound: two leave one degree of freedom and a useless t. */
export const MIN_HISTORY_RUNS = 3;

/**
 * How far from the history's centre a prediction bound may lie and still be of use: a bound above
 * 3× the centre (below a third, for throughput) comes from a history too short or too scattered
 * to tell a regression from noise, and is not reported as a limit (docs/gates.md).
 */
export const USEFUL_BOUND_RATIO = 3;

/** One-sided prediction bounds for the next run's value, in the values' own unit. */
export interface PredictionBounds {
  /** A new value above this is a regression for metrics where higher is worse (latency). */
  readonly upper: number;
  /** A new value below this is a regression for metrics where lower is worse (throughput). */
  readonly lower: number;
  /** How many past values the bounds rest on. */
  readonly n: number;
}

/** The history on the log scale: a robust centre and spread, and how many values. */
export interface HistoryModel {
  /** Median of log(value). */
  readonly centre: number;
  /** 1.4826 × MAD of log(value); the standard deviation when the MAD is 0 (half the values equal). */
  readonly spread: number;
  readonly n: number;
  /** The values it rests on (the last {@linkcode MAX_HISTORY_RUNS}). */
  readonly values: readonly number[];
}

/**
 * The model of past values `values` (all > 0, oldest first), or undefined with fewer than
 * {@linkcode MIN_HISTORY_RUNS}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { historyModel } from "./prediction_bound.ts";
 * const centre = Math.exp(historyModel([100, 110, 121, 500])!.centre);
 * assert.equal(Math.round(centre * 10) / 10, 115.4); // the 500 does not drag it
 * ```
 */
export function historyModel(values: readonly number[]): HistoryModel | undefined {
  for (const value of values) {
    if (!(value > 0 && Number.isFinite(value))) {
      throw new RangeError(`values must be finite and > 0, got ${value}`);
    }
  }
  const recent = values.slice(-MAX_HISTORY_RUNS);
  const n = recent.length;
  if (n < MIN_HISTORY_RUNS) return undefined;
  const logs = recent.map(Math.log);
  const centre = median(logs);
  const mad = median(logs.map((x) => Math.abs(x - centre)));
  let spread = 1.4826 * mad;
  if (spread === 0) {
    const mean = logs.reduce((sum, x) => sum + x, 0) / n;
    spread = Math.sqrt(logs.reduce((sum, x) => sum + (x - mean) ** 2, 0) / (n - 1));
  }
  return { centre, spread, n, values: recent };
}

/**
 * The chance, were the history's noise all there is, of a new value at least as bad as `value`
 * (higher when `higherIsWorse`, else lower): the one-sided p-value of the prediction t statistic
 * (log(value) − centre) / (spread · √(1 + 1/N)) with N − 1 degrees of freedom. With no spread at
 * all, 0 for a value beyond every past one and 1 otherwise.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { exceedanceP, historyModel } from "./prediction_bound.ts";
 * assert.equal(exceedanceP(historyModel([100, 110, 121])!, 110, true), 0.5);
 * ```
 */
export function exceedanceP(model: HistoryModel, value: number, higherIsWorse: boolean): number {
  if (model.spread === 0) {
    const beyond = higherIsWorse
      ? value > Math.max(...model.values)
      : value < Math.min(...model.values);
    return beyond ? 0 : 1;
  }
  const t = (Math.log(Math.max(value, 1e-300)) - model.centre) /
    (model.spread * Math.sqrt(1 + 1 / model.n));
  return higherIsWorse ? 1 - tCdf(t, model.n - 1) : tCdf(t, model.n - 1);
}

/**
 * One-sided prediction bounds at `confidence` for a new value, from past values `values` (all
 * > 0, oldest first; only the last {@linkcode MAX_HISTORY_RUNS} count). With c and s the
 * {@linkcode historyModel}'s centre and spread over N values and t = tQuantile(confidence, N − 1):
 * upper = exp(c + t·s·√(1 + 1/N)) and lower = exp(c − t·s·√(1 + 1/N)).
 * A history without spread bounds the next value to exactly the repeated value.
 * `undefined` when fewer than {@linkcode MIN_HISTORY_RUNS} values are given.
 */
export function predictionBounds(
  values: readonly number[],
  confidence = 0.999,
): PredictionBounds | undefined {
  if (!(confidence > 0.5 && confidence < 1)) {
    throw new RangeError(`confidence must be in (0.5, 1), got ${confidence}`);
  }
  const model = historyModel(values);
  if (model === undefined) return undefined;
  const { centre, spread, n } = model;
  const margin = tQuantile(confidence, n - 1) * spread * Math.sqrt(1 + 1 / n);
  if (margin === 0) {
    // No spread: exp(centre) can land an ulp below the repeated value and flag it.
    return { upper: Math.max(...model.values), lower: Math.min(...model.values), n };
  }
  return { upper: Math.exp(centre + margin), lower: Math.exp(centre - margin), n };
}

/**
 * Whether `bounds` say something about the next run: the bound on the worse side within
 * {@linkcode USEFUL_BOUND_RATIO} of `centre` (the history's robust centre, in the values' unit).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isUsefulBound } from "./prediction_bound.ts";
 * assert.equal(isUsefulBound({ upper: 140, lower: 103, n: 6 }, 121, true), true);
 * assert.equal(isUsefulBound({ upper: 433_000_000, lower: 0.4, n: 3 }, 900, true), false); // 120 hours
 * ```
 */
export function isUsefulBound(
  bounds: PredictionBounds,
  centre: number,
  higherIsWorse: boolean,
): boolean {
  return higherIsWorse
    ? bounds.upper <= centre * USEFUL_BOUND_RATIO
    : bounds.lower >= centre / USEFUL_BOUND_RATIO;
}
