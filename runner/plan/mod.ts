/**
 * The plan language: parse, validate and format issues.
 *
 * @module
 */
export type {
  Arrival,
  CaptureSource,
  ColumnValues,
  ConstantStage,
  DataOrder,
  ExportKind,
  ExportTarget,
  JsonTest,
  PlanBody,
  PlanCapture,
  PlanCheck,
  PlanDataSource,
  PlanGrpcCall,
  PlanGrpcSchema,
  PlanHeader,
  PlanIssue,
  PlanJourney,
  PlanJourneyStep,
  PlanLoad,
  PlanRequest,
  PlanSearch,
  PlanService,
  PlanStage,
  PlanStep,
  PlanThink,
  PlanTrace,
  PlanVar,
  PlanVarSpec,
  RampStage,
  RequestBasics,
  RequestTemplate,
  ResolvedPlan,
  ServiceReady,
  Slo,
  SloMetric,
  SloOperator,
  StageBinding,
  StatusExpectation,
  TemplateEncoding,
  TemplatePart,
  TemplateRef,
} from "./types.ts";
export { MAX_PLAN_BYTES, parsePlan, type PlanParse } from "./parse_plan.ts";
export { loadPlan, type LoadPlanOptions, parsePlanText } from "./load_plan.ts";
export { formatIssue } from "./format_issue.ts";
export {
  overrideFlags,
  parseStageOverride,
  type PlanOverrides,
  type StageOverride,
  type StageOverrideKey,
} from "./overrides/mod.ts";
export { type ParsedSlo, parseSlo, type SloParseError } from "./slo/mod.ts";
export { stagesForSlo } from "./slo/mod.ts";
export type { PlanContext } from "./requests/mod.ts";
export {
  formatDurationMs,
  formatRatePerSec,
  type Parsed,
  parseDurationMs,
  parsePercentFraction,
  parseRatePerSec,
} from "./units.ts";
export { DEFAULT_MIN_TAIL_SAMPLES, requestsToPass, requiredRequests } from "./slo/mod.ts";
export {
  DATA_LIMITS,
  MAX_PLAN_DATA_CELLS,
  parseTemplate,
  type TemplateScope,
} from "./traffic/mod.ts";
export { formatLengthMs, formatSlopeUsPerMin } from "./units.ts";
export { MAX_RATE_PER_SEC, plannedRequests } from "./validate_load.ts";
export {
  credentialsProblem,
  firstUrl,
  MAX_BODY_FILE_BYTES,
  mixLabels,
  notYetRun,
  parseHttpUrl,
  statusExpected,
} from "./requests/mod.ts";
export { framingProblem, wireTextProblem } from "./wire_rules.ts";
export {
  drawsFromSeed,
  refOwner,
  requestRefs,
  sentText,
  valueAt,
  withRunSeed,
} from "./traffic/mod.ts";
export { inertLine, inertLines, noWorkflowCommands, printable } from "./printable.ts";
export { requestsToPassSlo } from "./slo/mod.ts";
export type { MixLabel, MixLabels } from "./requests/mod.ts";
export { retarget } from "./retarget.ts";
export { didYouMean } from "./read/mod.ts";
export {
  type GrpcCodec,
  type GrpcSupport,
  grpcSupport,
  loadGrpcCodec,
  loadGrpcSupport,
} from "./grpc/mod.ts";
export {
  EXPORT_KINDS,
  exportUrlProblem,
  otlpMetricsUrl,
  parseExportFlag,
  printableUrl,
} from "./export/mod.ts";
export { isTraceHeader, MAX_TRACESTATE_MEMBERS, tracestateProblem } from "./requests/mod.ts";
