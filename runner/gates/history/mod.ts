/**
 * The history's statistics: the change points of one series of per-run values (a metric of a
 * stage over commits), found as Apache Otava finds them, with tailgate's magnitude rule, zero
 * floor and trends (`detect_changes.ts` says what differs), and Otava's own rule for comparison;
 * one plan's history judged from them (`analyze_history.ts`), and the verdict (`history_verdict.ts`).
 *
 * @module
 */
export { changeSteps, detectChanges, MIN_TREND_RUNS } from "./detect_changes.ts";
export { otavaChangePoints } from "./otava_change_points.ts";
export {
  type ChangeOptions,
  DEFAULT_CHANGE_OPTIONS,
  resolveChangeOptions,
  type SeriesChange,
} from "./series_change.ts";
export {
  analysisSteps,
  analyzeHistory,
  type HistoryInput,
  MIN_HISTORY_RUNS,
} from "./analyze_history.ts";
export { changeDirection, changeText, formatSeriesValue, seriesName } from "./change_text.ts";
export { higherIsWorse, historySeries, unitOf } from "./history_series.ts";
export { historyVerdict } from "./history_verdict.ts";
export { type RunSelection, type SelectedRuns, selectRuns } from "./select_runs.ts";
export {
  MIN_CHANGE_CAP,
  MIN_CHANGE_FLOOR,
  minChangeOf,
  robustSpread,
  SPREAD_SDS,
} from "./min_change.ts";
