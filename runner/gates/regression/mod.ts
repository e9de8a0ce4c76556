/**
 * The regression gates: a run against its stored history, a found capacity against its history,
 * `--confirm` reruns, which stages compare, and which tails a plan can never judge.
 *
 * @module
 */
export { applyConfirmation, regressionsToConfirm } from "./confirm_regressions.ts";
export type { ConfirmOptions } from "./confirm_regressions.ts";
export {
  DEFAULT_REGRESSION_FLOORS,
  evaluateRegression,
  metricValue,
  percentileOf,
  sampleOf,
} from "./regression.ts";
export type { RegressionMetric } from "./regression.ts";
export { judgeSearchRegression, searchRegressionLimit } from "./search_regression.ts";
export { unmatchedStages } from "./stage_match.ts";
export type { StageShape } from "./stage_match.ts";
export { undecidableTails } from "./undecidable_tails.ts";
