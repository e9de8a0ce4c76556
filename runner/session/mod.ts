/**
 * A plan's setup and teardown steps: sent once, outside the schedule and the histograms; their
 * captures bound into the measured requests as secrets. What a capture reads, and how, is
 * runner/engine/response/'s (journey steps capture the same way).
 *
 * @module
 */
export { bindCaptures } from "./bind_captures.ts";
export { runSetup, runTeardown, type Session, StepFailure } from "./run_steps.ts";
export { blotSecrets, maskedBody, secretForms, shownBody } from "./masked_text.ts";
export {
  type BoundStep,
  MAX_STEP_BODY_BYTES,
  sendStep,
  type SendStepOptions,
  type StepAnswer,
  type StepExchange,
} from "./send_step.ts";
