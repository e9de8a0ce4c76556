/**
 * How a JUnit report writes an undecided (`inconclusive`) gate: `--junit-inconclusive`. CI test
 * views count a `skipped` case as neither passed nor failed, so an undecided gate written so looks
 * harmless there; `failure` makes every one a failed test; `auto` (the default) writes each as the
 * run's `--fail-on` levels it, so the test view and the job agree: an `error` of type
 * `inconclusive` when it alone turns the run red, else `skipped`. Shared by the run's report and
 * the A/B comparison's.
 *
 * @module
 */
import { err, ok, problem, type Result } from "../../runner/model/mod.ts";

/** What `--junit-inconclusive` accepts. */
export type JunitInconclusive = "auto" | "skipped" | "failure";

/** The values of `--junit-inconclusive`, the default first. */
export const JUNIT_INCONCLUSIVE_VALUES: readonly JunitInconclusive[] = [
  "auto",
  "skipped",
  "failure",
];

/** The default: as `--fail-on` levels the gate. */
export const DEFAULT_JUNIT_INCONCLUSIVE: JunitInconclusive = "auto";

/** The element an undecided gate is written as, and its `type` when it is not `skipped`. */
export interface InconclusiveElement {
  element: "skipped" | "error" | "failure";
  type?: "inconclusive";
}

/**
 * The element of an undecided gate under `mapping`; `reddens`: it alone turns the run red under
 * the run's `fail-on`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { inconclusiveElement } from "./junit_inconclusive.ts";
 * assert.deepEqual(inconclusiveElement(false, "auto"), { element: "skipped" });
 * assert.deepEqual(inconclusiveElement(true, "auto"), { element: "error", type: "inconclusive" });
 * assert.deepEqual(inconclusiveElement(false, "failure"), { element: "failure", type: "inconclusive" });
 * assert.deepEqual(inconclusiveElement(true, "skipped"), { element: "skipped" });
 * ```
 */
export function inconclusiveElement(
  reddens: boolean,
  mapping: JunitInconclusive,
): InconclusiveElement {
  if (mapping === "failure") return { element: "failure", type: "inconclusive" };
  if (mapping === "auto" && reddens) return { element: "error", type: "inconclusive" };
  return { element: "skipped" };
}

/**
 * Reads a `--junit-inconclusive` value, or says what it accepts.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readJunitInconclusive } from "./junit_inconclusive.ts";
 * assert.deepEqual(readJunitInconclusive("failure"), { ok: true, value: "failure" });
 * assert.equal(readJunitInconclusive("error").ok, false);
 * ```
 */
export function readJunitInconclusive(text: string): Result<JunitInconclusive> {
  const value = text.trim();
  return (JUNIT_INCONCLUSIVE_VALUES as readonly string[]).includes(value)
    ? ok(value as JunitInconclusive)
    : err(problem(
      `\`${text}\` is not one of ${JUNIT_INCONCLUSIVE_VALUES.join(", ")}`,
      "`skipped` keeps every undecided gate out of the failed tests, `failure` counts each as " +
        "one, `auto` follows --fail-on",
    ));
}
