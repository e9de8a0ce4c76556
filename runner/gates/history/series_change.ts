/**
 * The change detector's vocabulary: its options (with Otava's defaults) and the change it reports
 * in one series of per-run values.
 *
 * @module
 */

/** How the change points of a series are found. */
export interface ChangeOptions {
  /**
   * The largest two-sided p-value a change may have (Otava's `max_pvalue`): 0.001. A step's is
   * found by shuffling (up to 100 000 shuffles), so below 0.00002 no step is found.
   */
  maxPValue?: number;
  /** Runs per sliding window of the split step (Otava's `window_len`): 50. */
  windowRuns?: number;
  /** The smallest relative change reported (0.05 is 5%): see `detectChanges` for the rule. */
  minMagnitude?: number;
}

/** The options' defaults: p ≤ 0.001, windows of 50 runs, a 5% minimum magnitude. */
export const DEFAULT_CHANGE_OPTIONS: Required<ChangeOptions> = {
  maxPValue: 0.001,
  windowRuns: 50,
  minMagnitude: 0.05,
};

/** A change found in a series: the detector's part of the history's `HistoryChange`. */
export interface SeriesChange {
  /** `step`: the level moved between two runs; `trend`: it crept along a line over a span of runs. */
  kind: "step" | "trend";
  /** A step's first value after the change; a trend's first value. */
  index: number;
  /** A trend's last value; a step's is its `index`. */
  endIndex: number;
  /** A step: the mean back to the previous change. A trend: its line's value at `index`. */
  meanBefore: number;
  /** A step: the mean up to the next change. A trend: its line's value at `endIndex`. */
  meanAfter: number;
  /** A step: the values `meanBefore` holds. A trend: the values its line was fitted to. */
  runsBefore: number;
  /** A step: the values `meanAfter` holds. A trend: the values its line was fitted to. */
  runsAfter: number;
  /** meanAfter / meanBefore − 1 (0.12 is +12%); meanBefore floored at 0.001 × the larger mean. */
  relativeChange: number;
  /** The 95% interval of `relativeChange`. */
  interval95: [number, number];
  /** A step: the shuffle scan's p-value (0.00067: none of 3000 shuffles came near). A trend: the slope's t-test. */
  pValue: number;
}

/**
 * The options filled in with {@linkcode DEFAULT_CHANGE_OPTIONS}, checked: a RangeError for a
 * p-value outside (0, 1), a window below 2 runs or not whole, or a negative magnitude.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resolveChangeOptions } from "./series_change.ts";
 * assert.equal(resolveChangeOptions({ windowRuns: 30 }).maxPValue, 0.001);
 * ```
 */
export function resolveChangeOptions(options: ChangeOptions = {}): Required<ChangeOptions> {
  const resolved = { ...DEFAULT_CHANGE_OPTIONS };
  for (const [key, value] of Object.entries(options)) {
    if (value !== undefined) resolved[key as keyof ChangeOptions] = value;
  }
  const { maxPValue, windowRuns, minMagnitude } = resolved;
  if (!(maxPValue > 0 && maxPValue < 1)) {
    throw new RangeError(`maxPValue must be in (0, 1), got ${maxPValue}`);
  }
  if (!(Number.isInteger(windowRuns) && windowRuns >= 2)) {
    throw new RangeError(`windowRuns must be a whole number >= 2, got ${windowRuns}`);
  }
  if (!(minMagnitude >= 0 && Number.isFinite(minMagnitude))) {
    throw new RangeError(`minMagnitude must be finite and >= 0, got ${minMagnitude}`);
  }
  return resolved;
}
