/**
 * Reading a response: a value captured from it (a JSON pointer, a header, a regular expression on
 * the body) and a check on it (status, header, JSON, body, size). Pure functions of a response and
 * the plan's words, used by setup steps (runner/session/) and by measured requests and journey steps.
 *
 * @module
 */
export {
  type CapturedValue,
  type CaptureProblem,
  captureSourceText,
  captureValue,
  type PointerMiss,
  resolvePointer,
  type StepResponse,
} from "./capture_value.ts";
export {
  type CheckedResponse,
  type CheckOutcome,
  evaluateCheck,
  type FailedCheck,
  parseJson,
} from "./evaluate_check.ts";
export { MAX_RETRY_AFTER_S, readsRetryAfter, retryAfterSeconds } from "./retry_after.ts";
export { LabelChecks, type MessageDecoder, ResponseView } from "./label_checks.ts";
