/**
 * Command-line overrides of a plan's load (`--rate-scale`, `--duration-scale`, `--stage`,
 * `--connections`), with each SLO following the stages it judged.
 *
 * @module
 */
export {
  applyOverrides,
  attributeIssues,
  overrideFlags,
  parseStageOverride,
  type PlanOverrides,
  type StageOverride,
  type StageOverrideKey,
} from "./plan_overrides.ts";
export { overriddenText } from "./overridden_text.ts";
