/**
 * Reading a judged result: what the reports, the CLI and the GitHub Action need of it, in one
 * room. The run's verdict as stored (never recomputed by a reader), the order of verdicts, the
 * run's soundness (stopped early, target lost, a fail-fast stop that stands), the measured floor,
 * the protocol the run spoke (HTTP/1.1 when a result predates it), and how figures are written
 * (metrics, changes, the median, failed requests with each unexpected status by its code).
 *
 * @module
 */
export { runVerdict, undecidedWarning } from "./stored_verdict.ts";
export { type AdviceScope, confirmReruns, moreWorkers } from "./advice_scope.ts";
export {
  gatesVerdict,
  RUNNER_CAUSES,
  sameGate,
  STATUS_SEVERITY,
  statusTally,
  undecidedByRunner,
  type VerdictScope,
  worstStatus,
} from "./verdict_order.ts";
export { holdsSoundness, SOUNDNESS_GATES, soundnessVerdicts } from "./run_soundness.ts";
export { TARGET_LOST_MIN_MS, targetLost } from "./target_lost.ts";
export {
  failFastReason,
  soundFailFastStop,
  type StoppedRun,
  stoppedWhen,
} from "./fail_fast_stop.ts";
export { carrySlos, type StoredSlo, storedSlos } from "./stored_slos.ts";
export {
  floorPercentiles,
  type MeasuredFloor,
  measuredFloor,
  percentileOf,
} from "./measured_floor.ts";
export { formatChange, formatChangeRange, formatMetric } from "./words/mod.ts";
export { median } from "./median.ts";
export {
  isHttp2,
  type ProtocolOf,
  protocolText,
  runProtocol,
  streamsText,
  waitedFor,
} from "./run_protocol.ts";
export {
  CONTENDED_RATIO,
  CONTENDED_SHARE,
  CONTENTION_QUEUE_FACTOR,
  delayedShares,
  intervalWaitMs,
  ranContended,
  reachingWaitsMs,
  summarizeContention,
} from "./machine_contention.ts";
export {
  cpuShare,
  type LatenessFigures,
  latenessRemedy,
  machinePaused,
  MIN_CPU_WINDOW_MS,
} from "./lateness_cause.ts";
export { toolLimitedSummary } from "./tool_limited_words.ts";
export {
  errorEntries,
  errorsInWords,
  type LabelCounts,
  type PlanExpectations,
  runErrorsInWords,
  unexpectedCodes,
} from "./words/mod.ts";
export {
  CLI_FAIL_ON_VALUES,
  DEFAULT_FAIL_ON,
  exitCodeOf,
  FAIL_ON_VALUES,
  type FailOn,
  failsUnder,
  readFailOn,
} from "./fail_on.ts";
