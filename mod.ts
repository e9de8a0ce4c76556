/**
 * tailgate's public API: run a plan and judge it (the front door: {@linkcode runPlan},
 * {@linkcode judge}), the plan language, the result contract, histograms, the reporters and the
 * built-in target. The `tailgate` command is `cli.ts`, built on these.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { judge, parsePlanText, runPlan, startTarget, writeReports } from "./mod.ts";
 *
 * await using target = await startTarget({ mode: "hello", port: 0 });
 * const { plan, issues } = parsePlanText(`
 * name: quick
 * target: ${target.url}
 * requests: [{ name: GET /, path: / }]
 * load: { connections: 4, stages: [{ name: steady, rate: 500/s, duration: 2s }] }
 * slo: [p90 < 100ms at 500/s, error_rate < 1%]
 * `);
 * if (!plan) throw new Error(issues.map((i) => i.message).join("\n"));
 * const result = await runPlan(plan);
 * const { verdict } = await judge(result);
 * const { paths } = await writeReports(result, await Deno.makeTempDir(), ["json", "html", "md"]);
 * assert.equal(result.stages[0].counts.completed, 1000); // every request has an outcome
 * assert.equal(verdict.summary.split(":")[0], "2 gates"); // "2 gates: 2 pass", exit code 0
 * assert.ok(paths.html?.endsWith("/report.html"));
 * ```
 *
 * @module
 */
export {
  type ChangeFigure,
  changeFigure,
  type ConfirmOptions,
  type ConfirmTimes,
  DEFAULT_FAIL_ON,
  exitCodeOf,
  type FailOn,
  history,
  HISTORY_METRICS,
  HISTORY_SCHEMA,
  HISTORY_VERSION,
  type HistoryChange,
  type HistoryChangeDirection,
  type HistoryMetric,
  type HistoryMinChange,
  type HistoryOptions,
  type HistoryOutcome,
  type HistoryReport,
  type HistoryRunRef,
  type HistorySeries,
  type HistorySettings,
  historySettings,
  type HistoryUnit,
  judge,
  type Judgement,
  type JudgeOptions,
  type LiveTally,
  type PlanHistory,
  type Progress,
  runPlan,
  type RunPlanOptions,
  type SeriesChange,
  type ShardSpec,
  shortCommit,
  StepFailure,
} from "./runner/api/mod.ts";
export {
  type PendingStep,
  runSearch,
  SEARCH_SCHEMA,
  SEARCH_VERSION,
  type SearchConclusionRecord,
  type SearchGate,
  type SearchHistoryEntry,
  type SearchOptions,
  type SearchResult,
  type SearchSettingsRecord,
  type SearchStep,
  type SearchVerdict,
} from "./runner/search/mod.ts";
export {
  AB_SCHEMA,
  AB_VERSION,
  type AbComparison,
  type AbOptions,
  type AbResult,
  type AbRound,
  type AbRun,
  type AbSide,
  type AbSloVerdict,
  type AbTargetSpec,
  DEFAULT_ROUNDS,
  runAb,
} from "./runner/ab/mod.ts";
export {
  type Arrival,
  type CaptureSource,
  type ColumnValues,
  type ConstantStage,
  type DataOrder,
  DEFAULT_MIN_TAIL_SAMPLES,
  formatDurationMs,
  formatIssue,
  formatRatePerSec,
  loadPlan,
  type LoadPlanOptions,
  MAX_PLAN_BYTES,
  type Parsed,
  type ParsedSlo,
  parseDurationMs,
  parsePercentFraction,
  parsePlan,
  parsePlanText,
  parseRatePerSec,
  parseSlo,
  parseStageOverride,
  type PlanBody,
  type PlanCapture,
  type PlanContext,
  type PlanDataSource,
  type PlanHeader,
  type PlanIssue,
  type PlanLoad,
  type PlanOverrides,
  type PlanParse,
  type PlanRequest,
  type PlanSearch,
  type PlanStage,
  type PlanStep,
  type PlanVar,
  type PlanVarSpec,
  type RampStage,
  type RequestBasics,
  type RequestTemplate,
  requiredRequests,
  type ResolvedPlan,
  type Slo,
  type SloMetric,
  type SloOperator,
  type SloParseError,
  type StageBinding,
  type StageOverride,
  type StageOverrideKey,
  stagesForSlo,
  type StatusExpectation,
  type TemplateEncoding,
  type TemplatePart,
  type TemplateRef,
} from "./runner/plan/mod.ts";
export {
  type BaselineReference,
  collectEnvironment,
  type EncodedHistogram,
  type Environment,
  type EnvironmentOptions,
  type ErrorKind,
  type FailFastStop,
  type HeaderRecord,
  type HistogramEncoding,
  type IntervalContention,
  type IntervalResult,
  type LabelResult,
  type LatencyPair,
  type MergedResults,
  mergeResults,
  type PlanRecord,
  planRecord,
  type Problem,
  readRunResult,
  type RequestCounts,
  type Result,
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
  type Verdict,
  type VerdictScope,
  type VerdictStatus,
  type WindowFinding,
  type WindowTally,
} from "./runner/result/mod.ts";
export {
  type CodecOptions,
  createHistogram,
  decodeHistogram,
  encodeHistogram,
  HdrCodecError,
  type Histogram,
  HISTOGRAM_CONFIG,
  type HistogramConfig,
  type HistogramLayout,
  type RecordedValue,
  type SparseCounts,
} from "./runner/hdr/mod.ts";
export {
  type ColorContext,
  DEFAULT_RUN_REPORTS,
  type HlogEntry,
  type HlogLog,
  HlogParseError,
  type MarkdownOptions,
  parseHlog,
  parseReportFormats,
  renderHlog,
  renderHtml,
  renderJunit,
  renderMarkdown,
  renderReport,
  renderTerminal,
  REPORT_FILES,
  REPORT_FORMATS,
  type ReportFormat,
  type ReportOptions,
  shouldUseColor,
  type TerminalOptions,
  writeReports,
  type WrittenReports,
} from "./reporters/mod.ts";
export {
  FAULT_KINDS,
  type FaultKind,
  startTarget,
  TARGET_MODES,
  type TargetConfig,
  type TargetMode,
  type TargetOptions,
  type TargetServer,
} from "./runner/target/mod.ts";
export { EXIT_CODES, type ExitCode } from "./runner/model/exit_codes.ts";
export { err, ok, problem, problemText } from "./runner/model/result.ts";
export { TAILGATE_VERSION } from "./runner/version.ts";
