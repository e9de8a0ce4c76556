/**
 * The result contract: types, the stored plan, the environment fingerprint and the reader.
 *
 * @module
 */
export {
  type BaselineReference,
  type CheckResult,
  type EncodedHistogram,
  type Environment,
  type ErrorKind,
  type FailFastStop,
  type HeaderRecord,
  type HistogramEncoding,
  type IntervalContention,
  type IntervalResult,
  type JourneyResult,
  type LabelResult,
  type LatencyPair,
  type PercentileExemplar,
  type PlanRecord,
  type RequestCounts,
  RESULT_SCHEMA,
  RESULT_VERSION,
  type RunContention,
  type RunProtocol,
  type RunResult,
  type RunVerdict,
  SLOWEST_KEPT,
  type SlowRequest,
  type StageResult,
  type StageTimeDomain,
  type StepRecord,
  type ToolHealth,
  type TrafficRecord,
  type Trend,
  type UnexpectedBody,
  type Verdict,
  type VerdictStatus,
  type WindowFinding,
  type WindowTally,
} from "../model/mod.ts";
export { planRecord } from "./plan_record.ts";
export { collectEnvironment, cpuModelFrom, detectCi } from "./environment.ts";
export type { EnvironmentOptions } from "./environment.ts";
export { readRunResult, readRunResultFile } from "./read_run_result.ts";
export type { Problem, Result } from "../model/mod.ts";
export type { VerdictScope } from "./read/mod.ts";
export { type MergedResults, mergeResults } from "./merge_results.ts";
export {
  CLI_FAIL_ON_VALUES,
  confirmReruns,
  CONTENTION_QUEUE_FACTOR,
  cpuShare,
  DEFAULT_FAIL_ON,
  errorsInWords,
  exitCodeOf,
  FAIL_ON_VALUES,
  failFastReason,
  failsUnder,
  floorPercentiles,
  formatChange,
  formatChangeRange,
  formatMetric,
  gatesVerdict,
  holdsSoundness,
  intervalWaitMs,
  isHttp2,
  latenessRemedy,
  measuredFloor,
  median,
  moreWorkers,
  percentileOf,
  protocolText,
  ranContended,
  reachingWaitsMs,
  readFailOn,
  runErrorsInWords,
  runProtocol,
  runVerdict,
  sameGate,
  soundFailFastStop,
  soundnessVerdicts,
  STATUS_SEVERITY,
  statusTally,
  stoppedWhen,
  storedSlos,
  streamsText,
  summarizeContention,
  targetLost,
  toolLimitedSummary,
  undecidedByRunner,
  undecidedWarning,
  waitedFor,
  worstStatus,
} from "./read/mod.ts";
export { amount, countsValues } from "./result_problem.ts";
export { buildResult } from "./build_result.ts";
export type {
  AdviceScope,
  FailOn,
  MeasuredFloor,
  ProtocolOf,
  StoppedRun,
  StoredSlo,
} from "./read/mod.ts";
export { latenessLimitUs, latenessP99Us, sendLagLimitUs } from "./tool_health.ts";
export { MIN_TREND_INTERVALS, stallThresholdUs } from "./time_domain.ts";
export { MAX_RESULT_BYTES } from "./read_run_result.ts";
export { parseBranch, parseCommit } from "./git_refs.ts";
