/**
 * The gates, pure judging: a run's verdict, the judgement of a run against its history
 * (`judgeRun`), `--confirm`'s reruns, the regression, trend and fail-fast gates and the A/B decision.
 * Code outside this folder imports it only through this file.
 *
 * @module
 */
export {
  evaluateRegression,
  judgeSearchRegression,
  searchRegressionLimit,
  skippedDefaultTails,
  undecidableTails,
} from "./regression/mod.ts";
export type { CertainFailure } from "./fail_fast/mod.ts";
export { failFastWatch } from "./fail_fast/mod.ts";
export {
  analysisSteps,
  DEFAULT_CHANGE_OPTIONS,
  historyVerdict,
  MIN_HISTORY_RUNS,
  selectRuns,
  seriesName,
} from "./history/mod.ts";
export type { ConfirmOptions, ConfirmTimes } from "./confirm_gates.ts";
export { confirmJudgement, judgeRun, rerunVerdicts, wantsRerun } from "./judge_run.ts";
export type { Judgement } from "./judge_run.ts";
export type { RegressionMetric } from "./regression/mod.ts";
export { DEFAULT_CONFIRM, readConfirm } from "./confirm_gates.ts";
export {
  AB_DEFAULT_MIN_TAIL_SAMPLES,
  abSloVerdicts,
  abVerdict,
  compareRounds,
  MIN_ROUNDS,
} from "./ab/mod.ts";
export { computeRunVerdict } from "./run_verdict.ts";
export type { RoundPair } from "./ab/mod.ts";
