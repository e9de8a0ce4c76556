/**
 * The GitHub Action (action.yml) run on this machine as a runner runs its shell steps, for studies
 * that must measure the product through its real entry point (verdict_noise.ts): its inputs'
 * defaults read from action.yml, each step's `env:` and `if:` evaluated (action_expr.ts), the
 * steps' outputs, annotations and summary collected (action_job.ts).
 *
 * @module
 */
export {
  type Action,
  type ActionStep,
  type Annotation,
  endRunningSteps,
  type GithubEvent,
  type JobOutcome,
  type JobSpec,
  parseAnnotations,
  parseOutputs,
  readAction,
  runJob,
  type StepOutcome,
} from "./action_job.ts";
export { evaluate, type ExprContext, interpolate, type Lookup, stepRuns } from "./action_expr.ts";
