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
  type PlanRecord,
  type RequestCounts,
  RESULT_SCHEMA,
  RESULT_VERSION,
  type RunContention,
  type RunProtocol,
  type RunResult,
  type RunVerdict,
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
} from "../model/run_result.ts";
export { planRecord } from "./plan_record.ts";
export { collectEnvironment, cpuModelFrom, detectCi } from "./environment.ts";
export type { EnvironmentOptions } from "./environment.ts";
export { readRunResult, readRunResultFile } from "./read_run_result.ts";
export type { Problem, Result } from "../model/result.ts";
export type { VerdictScope } from "./read/mod.ts";
export { type MergedResults, mergeResults } from "./merge_results.ts";
