/**
 * What turns a run red, stated once for `tailgate run`, `merge`, `ab` and the GitHub Action. A
 * `fail` (beyond doubt) and an `invalid` run are red; a `pass` never is. An `inconclusive` verdict
 * is red or not by `fail-on`:
 *
 * - `inconclusive`: any undecided gate is red (the strict choice: a nightly run that must decide);
 * - `inconclusive-slo` (the default): an undecided SLO is red, but when only regression checks
 *   (against the history, or head against base) are undecided, the run is a warning with their
 *   remedy: a regression check that cannot tell a change from the machine's noise is no evidence
 *   that anything changed, and on a day nothing changed it must not turn the job red;
 * - `fail`: only a fail or an invalid run is red;
 * - `never` (the Action only): the job stays green; its `verdict` output tells.
 *
 * The stored verdict keeps its status (`inconclusive`): `regressionOnly` on it says which kind.
 *
 * @module
 */
import type { RunVerdict } from "../model/run_result.ts";

/** What turns a run red: see the module's documentation and docs/gates.md. */
export type FailOn = "inconclusive" | "inconclusive-slo" | "fail" | "never";

/** The values `fail-on` accepts, strictest first. */
export const FAIL_ON_VALUES: readonly FailOn[] = [
  "inconclusive",
  "inconclusive-slo",
  "fail",
  "never",
];

/**
 * The values `--fail-on` accepts on the command line: not `never`, since there the exit code is
 * the verdict (a job that must stay green ignores it).
 */
export const CLI_FAIL_ON_VALUES: readonly FailOn[] = ["inconclusive", "inconclusive-slo", "fail"];

/** The default of `--fail-on` and of the Action's `fail-on`. */
export const DEFAULT_FAIL_ON: FailOn = "inconclusive-slo";

/** What {@linkcode failsUnder} reads of a verdict. */
export type VerdictScope = Pick<RunVerdict, "status" | "regressionOnly">;

/**
 * Whether `verdict` is red under `failOn`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { failsUnder } from "./fail_on.ts";
 * assert.equal(failsUnder({ status: "inconclusive", regressionOnly: true }, "inconclusive-slo"), false);
 * assert.equal(failsUnder({ status: "inconclusive" }, "inconclusive-slo"), true); // an SLO is undecided
 * assert.equal(failsUnder({ status: "fail" }, "fail"), true);
 * ```
 */
export function failsUnder(verdict: VerdictScope, failOn: FailOn): boolean {
  if (verdict.status === "pass" || failOn === "never") return false;
  if (verdict.status !== "inconclusive") return true;
  return failOn === "inconclusive" || (failOn === "inconclusive-slo" && !verdict.regressionOnly);
}

/**
 * Reads a `fail-on` value (`insufficient`, the name results used before format 3, is
 * `inconclusive`), or says what it accepts.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { CLI_FAIL_ON_VALUES, readFailOn } from "./fail_on.ts";
 * assert.deepEqual(readFailOn("fail"), { ok: true, failOn: "fail" });
 * assert.equal(readFailOn("never", CLI_FAIL_ON_VALUES).ok, false);
 * ```
 */
export function readFailOn(
  text: string,
  accepted: readonly FailOn[] = FAIL_ON_VALUES,
): { ok: true; failOn: FailOn } | { ok: false; error: string } {
  const value = text.trim() === "insufficient" ? "inconclusive" : text.trim();
  return (accepted as readonly string[]).includes(value)
    ? { ok: true, failOn: value as FailOn }
    : { ok: false, error: `\`${text}\` is not one of ${accepted.join(", ")}` };
}

/**
 * The warning every report shows when only regression checks are undecided, or undefined.
 */
export function regressionOnlyWarning(verdict: VerdictScope): string | undefined {
  if (verdict.status !== "inconclusive" || !verdict.regressionOnly) return undefined;
  return "only regression checks are undecided: a warning, not a failure (exit 0), unless the " +
    "run is strict (`--fail-on inconclusive`, the Action's `fail-on: inconclusive`); each check " +
    "says why and what would decide it";
}
