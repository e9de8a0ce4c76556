/**
 * The shared vocabulary, importing nothing: the result documents' types (run, search, A/B,
 * history), request counts and their sums, exit codes, `Result<T>` and its problems, the one rule for
 * reading a file tailgate did not write and the one for writing its own, and a long computation in
 * steps. Code outside this folder imports it only through this file.
 *
 * @module
 */
export { err, ok, prefixed, problem, problems, problemText } from "./result.ts";
export type { Problem, Result } from "./result.ts";
export { newFileInPlace, writeAll, writeFileAtomic } from "./atomic_write.ts";
export { readRegularFile } from "./regular_file.ts";
export type {
  BaselineReference,
  CheckResult,
  EncodedHistogram,
  Environment,
  ErrorKind,
  FailFastStop,
  HeaderRecord,
  HistogramEncoding,
  IntervalContention,
  IntervalResult,
  JourneyResult,
  LabelResult,
  LatencyPair,
  PercentileExemplar,
  PlanRecord,
  RequestCounts,
  RunContention,
  RunProtocol,
  RunResult,
  RunVerdict,
  SlowRequest,
  StageResult,
  StageTimeDomain,
  StepRecord,
  ToolHealth,
  TrafficRecord,
  Trend,
  UnexpectedBody,
  Verdict,
  VerdictStatus,
  WindowFinding,
  WindowTally,
} from "./run_result.ts";
export type {
  SearchConclusionRecord,
  SearchGate,
  SearchResult,
  SearchSettingsRecord,
  SearchStep,
  SearchVerdict,
} from "./search_result.ts";
export {
  DEFAULT_WINDOW_MIB,
  MAX_STREAMS_PER_CONNECTION,
  MAX_UNEXPECTED_BODIES,
  MAX_WINDOW_MIB,
  RESULT_SCHEMA,
  RESULT_VERSION,
  SERVER_STREAMS_CAP,
  SLOWEST_KEPT,
  UNEXPECTED_BODY_BYTES,
} from "./run_result.ts";
export { SEARCH_SCHEMA, SEARCH_VERSION } from "./search_result.ts";
export {
  changeFigure,
  HISTORY_METRICS,
  HISTORY_SCHEMA,
  HISTORY_VERSION,
  shortCommit,
} from "./history_result.ts";
export type {
  ChangeFigure,
  HistoryChange,
  HistoryChangeDirection,
  HistoryMetric,
  HistoryMinChange,
  HistoryReport,
  HistoryRunRef,
  HistorySeries,
  HistorySettings,
  HistoryUnit,
  PlanHistory,
  SeriesChange,
} from "./history_result.ts";
export { drained, drainedUnless } from "./steps.ts";
export type { Steps } from "./steps.ts";
export {
  addCounts,
  completedPerSec,
  countsProblem,
  emptyCounts,
  errorRate,
  errorTotal,
} from "./request_counts.ts";
export type { AbComparison, AbResult, AbRound, AbRun, AbSide, AbSloVerdict } from "./ab_result.ts";
export { EXIT_CODES, withIoFailures } from "./exit_codes.ts";
export type { ExitCode } from "./exit_codes.ts";
export { AB_SCHEMA, AB_VERSION } from "./ab_result.ts";
export {
  GRPC_STATUS_BASE,
  GRPC_STATUS_NAMES,
  isGrpcStatus,
  statusKey,
  statusOfKey,
} from "./grpc_status.ts";
