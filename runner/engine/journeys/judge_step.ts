/**
 * Whether a journey step's response lets its journey go on: its status expected and every
 * capture finding its value (capture_value.ts), the captured values kept for the journey's later
 * steps. Its checks are the label's, evaluated and counted as any label's
 * (engine/response/label_checks.ts, by the dispatcher); a failed one ends the journey there. Pure
 * but for the values it writes into the journey's slots.
 *
 * @module
 */
import type { ErrorKind } from "../../model/mod.ts";
import type { PlanCapture, StatusExpectation } from "../../plan/mod.ts";
import { statusExpected } from "../../plan/runtime/mod.ts";
import {
  type CapturedValue,
  captureValue,
  type MessageDecoder,
  ResponseView,
} from "../response/mod.ts";
import type { ResponseOutcome } from "../types.ts";

/** What a step asks of its response. */
export interface StepRules {
  expect: StatusExpectation;
  captures: readonly PlanCapture[];
  /** Each capture's slot among its journey's captured values. */
  captureSlots: readonly number[];
  /** A gRPC call's response decoder: its captures read the message's JSON form. */
  decode?: MessageDecoder;
}

/**
 * The step's failure, or undefined when its journey goes on: the outcome's own error, then
 * `unexpected_status` (a status the step does not take: the recorder names it, rate limited or
 * not), then `check_failed` (a capture found nothing). Captured values go into `captured` by slot.
 *
 * `view` is reused from call to call by a caller that judges many (the journey table), so a step
 * allocates nothing to be read.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { judgeStep } from "./judge_step.ts";
 * const rules = {
 *   expect: { codes: [], classes: [2] }, captureSlots: [0],
 *   captures: [{ name: "id", from: { kind: "json" as const, pointer: "/id" } }],
 * };
 * const outcome = { status: 201, bytesSent: 1, bytesReceived: 1, writtenAtMs: 0, completedAtMs: 1,
 *   body: new TextEncoder().encode('{"id":7}') };
 * const captured: ({ text: string; json: string } | undefined)[] = [];
 * assert.equal(judgeStep(rules, outcome, captured), undefined);
 * assert.equal(captured[0]?.text, "7");
 * assert.equal(judgeStep(rules, { ...outcome, body: undefined }, captured), "check_failed");
 * ```
 */
export function judgeStep(
  rules: StepRules,
  outcome: ResponseOutcome,
  captured: (CapturedValue | undefined)[],
  view: ResponseView = new ResponseView(),
): ErrorKind | undefined {
  if (outcome.error !== undefined) return outcome.error;
  if (!statusExpected(rules.expect, outcome.status)) return "unexpected_status";
  if (rules.captures.length === 0) return undefined;
  // One reusable view of the kept body and headers: the text decoded once, on first read.
  const response = view.of(outcome, rules.decode);
  for (let i = 0; i < rules.captures.length; i++) {
    const value = captureValue(rules.captures[i].from, response);
    if (!value.ok) return "check_failed";
    captured[rules.captureSlots[i]] = value.value;
  }
  return undefined;
}
