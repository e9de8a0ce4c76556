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
export type { SeriesChange } from "../../model/mod.ts";

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
