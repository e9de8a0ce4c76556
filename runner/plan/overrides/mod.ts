/**
 * Command-line overrides of a plan's load (`--rate-scale`, `--duration-scale`, `--stage`,
 * `--connections`), with each SLO following the stages it judged.
 *
 * @module
 */
export { overriddenText } from "./overridden_text.ts";
export {
  applyOverrides,
  attributeIssues,
  overrideFlags,
  parseStageOverride,
} from "./plan_overrides.ts";
export type { PlanOverrides, StageOverride, StageOverrideKey } from "./plan_overrides.ts";
