/**
 * The library's front door: what the `tailgate` command does, as functions. Run a plan
 * ({@linkcode measureRun}), judge its result ({@linkcode judge}), and turn the verdict into an exit
 * code ({@linkcode exitCodeOf}); follow a plan's history over commits ({@linkcode history});
 * rendering reports is `renderReport` / `writeReports` in
 * reporters/mod.ts.
 *
 * @module
 */
export {
  type MeasuredRun,
  measurePlan,
  measureRun,
  type MeasureRunOptions,
  type Progress,
} from "./measure_plan.ts";
export { type RunOutcome, runPlan, type RunPlanOptions, stepFailed } from "./run_plan.ts";
export { type TeardownDone, withTeardown } from "./teardown_done.ts";
export type { LiveTally } from "../recorder/mod.ts";
export {
  type RunService,
  type ServiceFailure,
  type ServiceToStart,
  startRunService,
  type StartRunServiceOptions,
} from "./run_service.ts";
export { judge, type JudgedRun, type Judgement, type JudgeOptions } from "./judge.ts";
export { history, type HistoryOptions, type HistoryOutcome, historySettings } from "./history.ts";
export {
  type ChangeFigure,
  changeFigure,
  HISTORY_METRICS,
  HISTORY_SCHEMA,
  HISTORY_VERSION,
  type HistoryChange,
  type HistoryChangeDirection,
  type HistoryMetric,
  type HistoryMinChange,
  type HistoryReport,
  type HistoryRunRef,
  type HistorySeries,
  type HistorySettings,
  type HistoryUnit,
  type PlanHistory,
  type SeriesChange,
  shortCommit,
} from "../model/mod.ts";
export type { ConfirmOptions, ConfirmTimes } from "../gates/mod.ts";
export { DEFAULT_FAIL_ON, exitCodeOf, type FailOn } from "../result/mod.ts";
export type { ShardSpec } from "../schedule/mod.ts";
export { StepFailure } from "../session/mod.ts";
export { checkOutDir, claimOutDir, outPlaceProblem, ownOutDirProblem } from "./out_dir.ts";
export { outOverlap } from "./out_overlap.ts";
export { readCaCerts } from "./ca_certs.ts";
export { failed, type Outcome } from "./outcome.ts";
export { serviceToStart, type StartFlags } from "./service_to_start.ts";
export { type PreparedRun, type PrepareRunOptions, withPreparedRun } from "./prepare_run.ts";
export {
  defaultColor,
  type FinishedResult,
  type FinishOptions,
  finishResult,
} from "./finish_result.ts";
