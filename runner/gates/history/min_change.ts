/**
 * The smallest change a series reports when `--min-change` is not given: what its own runs'
 * spread supports. Three robust standard deviations of one run's value around its neighbours (on
 * the log scale, so relative), at least 1% and at most 5% (the fixed default it replaces).
 *
 * The spread is 1.4826 × the median absolute deviation of the successive runs' log differences,
 * over √2: a run's robust SD as its neighbours see it. The differences, not the values around
 * their median, so that a step or a creep in the series does not widen it (a 3% step in the middle
 * of runs that spread 0.3% would otherwise read as a 2.2% spread), and the median, so that the
 * one run in ten that spikes 2–5× does not. Below 5% this lets a quiet runner's small steps
 * through (a 3% p50 step where the runs spread 0.3%); above it a wider minimum would only hide
 * changes the shuffle test has already proved against that spread.
 *
 * @module
 */
import type { HistoryMinChange } from "../../model/mod.ts";

/** Robust standard deviations of a run that a change must reach. */
export const SPREAD_SDS = 3;
/** The least minimum change: 1%. */
export const MIN_CHANGE_FLOOR = 0.01;
/** The most: 5%, the fixed default before. */
export const MIN_CHANGE_CAP = 0.05;

/** 1.4826 × MAD is a normal distribution's standard deviation. */
const MAD_TO_SD = 1.4826;

function median(sorted: readonly number[]): number {
  const n = sorted.length;
  return (sorted[(n - 1) >> 1] + sorted[n >> 1]) / 2;
}

/**
 * The robust standard deviation of one run's log value (see the module); undefined for fewer than
 * three values or any value that is not above zero (0 has no log).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { robustSpread } from "./min_change.ts";
 * assert.equal(robustSpread([100, 100, 100, 200, 200, 200]), 0);
 * assert.equal(robustSpread([0, 1, 2]), undefined);
 * ```
 */
export function robustSpread(values: readonly number[]): number | undefined {
  if (values.length < 3 || !values.every((v) => v > 0 && Number.isFinite(v))) return undefined;
  const differences = values.slice(1).map((v, i) => Math.log(v / values[i]));
  const centre = median([...differences].sort((a, b) => a - b));
  const deviations = differences.map((d) => Math.abs(d - centre)).sort((a, b) => a - b);
  return MAD_TO_SD * median(deviations) / Math.SQRT2;
}

function percent(fraction: number): string {
  return `${Number((fraction * 100).toPrecision(2))}%`;
}

/**
 * A series' minimum change: `explicit` (`--min-change`) when given, else {@linkcode SPREAD_SDS}
 * robust SDs of its runs within [1%, 5%], with the reason in words.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { minChangeOf } from "./min_change.ts";
 * const quiet = Array.from({ length: 60 }, (_, i) => 1000 * (1 + 0.008 * Math.sin(i * 2.1)));
 * const min = minChangeOf(quiet);
 * assert.ok(min.value > 0.01 && min.value < 0.05);
 * assert.equal(min.reason, "3 robust SDs of its runs (SD 0.43%)");
 * assert.deepEqual(minChangeOf(quiet, 0.05), { value: 0.05, reason: "--min-change 5%" });
 * ```
 */
export function minChangeOf(values: readonly number[], explicit?: number): HistoryMinChange {
  if (explicit !== undefined) {
    return { value: explicit, reason: `--min-change ${percent(explicit)}` };
  }
  const spread = robustSpread(values);
  if (spread === undefined) {
    return {
      value: MIN_CHANGE_CAP,
      reason: `the ${percent(MIN_CHANGE_CAP)} default: its runs include 0, which has no log spread`,
    };
  }
  const wanted = SPREAD_SDS * spread;
  const sds = `${SPREAD_SDS} robust SDs of its runs`;
  if (wanted < MIN_CHANGE_FLOOR) {
    return {
      value: MIN_CHANGE_FLOOR,
      spread,
      reason: `the ${percent(MIN_CHANGE_FLOOR)} floor (${sds}, SD ${percent(spread)}, come to ` +
        `${percent(wanted)})`,
    };
  }
  if (wanted > MIN_CHANGE_CAP) {
    return {
      value: MIN_CHANGE_CAP,
      spread,
      reason: `the ${percent(MIN_CHANGE_CAP)} cap (${sds}, SD ${percent(spread)}, come to ` +
        `${percent(wanted)}: the shuffle test already holds a change to that spread)`,
    };
  }
  return { value: wanted, spread, reason: `${sds} (SD ${percent(spread)})` };
}
