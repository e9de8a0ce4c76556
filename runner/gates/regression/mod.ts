/**
 * The regression gates: a run against its stored history, a found capacity against its history,
 * and which tails a plan can never judge (which stages compare: runner/history/stage_match.ts).
 *
 * @module
 */
export { evaluateRegression } from "./regression.ts";
export type { RegressionOptions } from "./regression.ts";
export {
  BASELINE_WINDOW_RUNS,
  baselineRunsNeeded,
  DEFAULT_REGRESSION_FLOORS,
  isTailMetric,
  metricValue,
  MIN_BASELINE_RUNS,
  MIN_TAIL_BASELINE_RUNS,
  percentileOf,
  sampleOf,
} from "./regression_metrics.ts";
export type { RegressionMetric, Sample } from "./regression_metrics.ts";
export { judgeSearchRegression, searchRegressionLimit } from "./search_regression.ts";
export { skippedDefaultTails, undecidableTails } from "./undecidable_tails.ts";
