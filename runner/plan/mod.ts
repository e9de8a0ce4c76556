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
  JsonTest,
  PlanBody,
  PlanCapture,
  PlanCheck,
  PlanDataSource,
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
