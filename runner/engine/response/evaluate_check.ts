/**
 * Evaluating one `check:` of a request or a journey step on its response (docs/decisions/
 * journeys.md, "Checks"): status, a header's pattern, a JSON pointer's value, the body's text or
 * pattern, the body's size. Pure. Its JSON pointers go through {@linkcode resolvePointer}, as a
 * capture's do. A failure names the check by its text and plan line, with why it failed; the why
 * shows no header or body value (a journey's response may hold a token).
 *
 * @module
 */
import type { JsonTest, PlanCheck } from "../../plan/mod.ts";
import { statusExpected } from "../../plan/runtime/mod.ts";
import { NO_VALUE, pointerValue, resolvePointer, type StepResponse } from "./capture_value.ts";

/** The parts of a response a check reads. */
export interface CheckedResponse extends Pick<StepResponse, "header" | "bodyText" | "cutAtBytes"> {
  /** The response's status code. */
  status: number;
  /** The whole body's size in bytes, counted even where it was not kept. */
  bodyBytes: number;
  /**
   * The body parsed as JSON, once per response however many checks read it (a
   * `ResponseView` caches it): `{ value }`, or undefined when the body is not JSON.
   * Absent: each JSON check parses `bodyText` itself.
   */
  json?(): { value: unknown } | undefined;
}

/** A check that failed: its text (`/state == open`), its plan line, and why. */
export interface FailedCheck {
  pass: false;
  text: string;
  line: number;
  why: string;
}

/** What {@linkcode evaluateCheck} finds: a pass, or the failed check. */
export type CheckOutcome = { pass: true } | FailedCheck;

const PASS: CheckOutcome = Object.freeze({ pass: true });

/**
 * Patterns as the plan wrote them, compiled once per pattern and thread, on first use (the plan
 * layer made sure each compiles): JavaScript `RegExp`s without flags, unanchored.
 */
const compiled = new Map<string, RegExp>();
/** The compiled form of `pattern` (compiled on its first use, then looked up). */
export function regex(pattern: string): RegExp {
  let re = compiled.get(pattern);
  if (re === undefined) compiled.set(pattern, re = new RegExp(pattern));
  return re;
}

/**
 * Whether `response` passes `check`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { evaluateCheck } from "./evaluate_check.ts";
 * const response = {
 *   status: 201,
 *   header: () => [],
 *   bodyText: '{"state":"open"}',
 *   bodyBytes: 16,
 * };
 * const check = { kind: "json", pointer: "/state", text: "/state == open", line: 9 } as const;
 * assert.deepEqual(evaluateCheck({ ...check, test: { op: "eq", json: '"open"' } }, response), { pass: true });
 * assert.deepEqual(evaluateCheck({ ...check, test: { op: "absent" } }, response), {
 *   pass: false,
 *   text: "/state == open",
 *   line: 9,
 *   why: "`/state` has a value",
 * });
 * ```
 */
export function evaluateCheck(check: PlanCheck, response: CheckedResponse): CheckOutcome {
  const why = whyFailed(check, response);
  return why === undefined ? PASS : { pass: false, text: check.text, line: check.line, why };
}

/** Why `check` fails on `response`, or undefined when it passes. */
function whyFailed(check: PlanCheck, response: CheckedResponse): string | undefined {
  switch (check.kind) {
    case "status":
      return statusExpected(check.expect, response.status)
        ? undefined
        : `the status is ${response.status}`;
    case "header": {
      const values = response.header(check.name);
      if (values.length === 0) return `the response has no \`${check.name}\` header`;
      return regex(check.pattern).test(values.join(", "))
        ? undefined
        : `\`${check.name}\` does not match`;
    }
    case "json":
      return jsonFailure(check.pointer, check.test, response);
    case "body_contains":
      return response.bodyText.includes(check.contains) ? undefined : bodyMiss(response);
    case "body_matches":
      return regex(check.pattern).test(response.bodyText) ? undefined : bodyMiss(response);
    case "max_bytes":
      return response.bodyBytes <= check.bytes
        ? undefined
        : `the body is ${response.bodyBytes} bytes`;
  }
}

/** A body check's failure, saying when the body searched was only its beginning. */
function bodyMiss(response: CheckedResponse): string {
  return response.cutAtBytes === undefined
    ? "the body does not hold it"
    : `the body's first ${response.cutAtBytes} bytes do not hold it (the rest was not read)`;
}

function jsonFailure(
  pointer: string,
  test: JsonTest,
  response: CheckedResponse,
): string | undefined {
  if (response.cutAtBytes !== undefined) {
    return `the body passed the ${response.cutAtBytes} bytes read, so it is no JSON`;
  }
  const parsed = response.json !== undefined ? response.json() : parseJson(response.bodyText);
  if (parsed === undefined) return "the body is not JSON";
  const doc = parsed.value;
  const value = pointerValue(doc, pointer);
  if (test.op === "absent") return value !== NO_VALUE ? `\`${pointer}\` has a value` : undefined;
  if (value === NO_VALUE) {
    const found = resolvePointer(doc, pointer); // for the words of where it stopped
    return `nothing is at \`${pointer}\` (${found.ok ? "no value" : found.problems[0].message})`;
  }
  switch (test.op) {
    case "exists":
      return undefined;
    case "eq":
      return JSON.stringify(value) === test.json ? undefined : `\`${pointer}\` is another value`;
    case "lt":
    case "gt": {
      if (typeof value !== "number") return `\`${pointer}\` is not a number`;
      const holds = test.op === "lt" ? value < test.value : value > test.value;
      return holds
        ? undefined
        : `\`${pointer}\` is ${test.op === "lt" ? "not below" : "not above"} ${test.value}`;
    }
    case "matches": {
      const text = typeof value === "string" ? value : JSON.stringify(value);
      return regex(test.pattern).test(text) ? undefined : `\`${pointer}\` does not match`;
    }
  }
}

/** `text` parsed as JSON: `{ value }`, or undefined when it is not JSON. */
export function parseJson(text: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) };
  } catch {
    return undefined;
  }
}
