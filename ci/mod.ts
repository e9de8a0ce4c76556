/**
 * tailgate in CI pipelines: the GitHub Action's plan runner (`action.yml` runs
 * ci/action/run_plans.ts, which calls the `tailgate` command once per plan and publishes the
 * verdicts), GitHub's workflow commands, and the release steps. The example pipelines are in
 * ci/examples/.
 *
 * @module
 */
export { runPlansMain, type RunPlansOptions, type TailgateRunner } from "./action/run_plans.ts";
export {
  type Annotation,
  escapeData,
  escapeProperty,
  formatAnnotation,
  formatGroup,
  formatOutputs,
  writeOutputs,
} from "./workflow_commands.ts";
export { bumpMain } from "./release/bump_version.ts";
export { prepareMain } from "./release/prepare_release.ts";
