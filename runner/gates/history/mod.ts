/**
 * The history's statistics: the change points of one series of per-run values (a metric of a
 * stage over commits), found as Apache Otava finds them, with tailgate's magnitude rule, zero
 * floor and trends (`detect_changes.ts` says what differs), and Otava's own rule for comparison.
 *
 * @module
 */
export { detectChanges, MIN_TREND_RUNS } from "./detect_changes.ts";
export { otavaChangePoints } from "./otava_change_points.ts";
export {
  type ChangeOptions,
  DEFAULT_CHANGE_OPTIONS,
  resolveChangeOptions,
  type SeriesChange,
} from "./series_change.ts";
