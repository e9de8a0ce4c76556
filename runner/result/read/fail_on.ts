/**
 * What turns a run red, stated once for `tailgate run`, `merge`, `ab` and the GitHub Action. A
 * `fail` (beyond doubt) and an `invalid` run are red; a `pass` never is. An `inconclusive` verdict
 * is red or not by `fail-on`:
 *
 * - `inconclusive`: any undecided gate is red (the strict choice: a nightly run that must decide);
 * - `inconclusive-sampling` (the default): an SLO this run had too few requests to decide (cause
 *   `sampling`: the plan asks for more than the run can show) is red; a gate undecided for the
 *   runner's sake alone (the machine's contention, the generator's own delays or schedule, a
 *   history too short or scattered: a regression check) is a warning with its remedy. Such a gate
 *   is no evidence that anything changed, and on a day nothing changed it must not turn the job
 *   red (docs/gates.md, "What turns a run red");
 * - `inconclusive-slo`: any undecided SLO is red, whatever its cause; only regression checks alone
 *   undecided are a warning (the default before the runner's causes were told apart);
 * - `fail`: only a fail or an invalid run is red;
 * - `never` (the Action only): the job stays green; its `verdict` output tells.
 *
 * The stored verdict keeps its status (`inconclusive`): `regressionOnly` and `runnerOnly` on it
 * say which kind.
 *
 * @module
 */
import { EXIT_CODES, type ExitCode } from "../../model/mod.ts";
import type { RunVerdict } from "../../model/mod.ts";
import { err, ok, problem, type Result } from "../../model/mod.ts";
import type { VerdictScope } from "./verdict_order.ts";

/** What turns a run red: see the module's documentation and docs/gates.md. */
export type FailOn =
  | "inconclusive"
  | "inconclusive-slo"
  | "inconclusive-sampling"
  | "fail"
  | "never";

/** The values `fail-on` accepts, strictest first. */
export const FAIL_ON_VALUES: readonly FailOn[] = [
  "inconclusive",
  "inconclusive-slo",
  "inconclusive-sampling",
  "fail",
  "never",
];

/**
 * The values `--fail-on` accepts on the command line: not `never`, since there the exit code is
 * the verdict (a job that must stay green ignores it).
 */
export const CLI_FAIL_ON_VALUES: readonly FailOn[] = [
  "inconclusive",
  "inconclusive-slo",
  "inconclusive-sampling",
  "fail",
];

/** The default of `--fail-on` and of the Action's `fail-on`. */
export const DEFAULT_FAIL_ON: FailOn = "inconclusive-sampling";

/**
 * Whether `verdict` is red under `failOn`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { failsUnder } from "./fail_on.ts";
 * const contended = { status: "inconclusive" as const, runnerOnly: true as const };
 * assert.equal(failsUnder(contended, "inconclusive-sampling"), false); // the runner's, a warning
 * assert.equal(failsUnder(contended, "inconclusive-slo"), true); // an SLO is undecided
 * assert.equal(failsUnder({ status: "inconclusive" }, "inconclusive-sampling"), true); // too few requests
 * assert.equal(failsUnder({ status: "fail" }, "fail"), true);
 * ```
 */
export function failsUnder(verdict: VerdictScope, failOn: FailOn): boolean {
  if (verdict.status === "pass" || failOn === "never") return false;
  if (verdict.status !== "inconclusive") return true;
  switch (failOn) {
    case "inconclusive":
      return true;
    case "inconclusive-slo":
      return !verdict.regressionOnly;
    case "inconclusive-sampling":
      return !verdict.runnerOnly && !verdict.regressionOnly;
    case "fail":
      return false;
  }
}

/**
 * Reads a `fail-on` value (`insufficient`, the name results used before format 3, is
 * `inconclusive`), or says what it accepts.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { CLI_FAIL_ON_VALUES, readFailOn } from "./fail_on.ts";
 * assert.deepEqual(readFailOn("fail"), { ok: true, value: "fail" });
 * assert.equal(readFailOn("never", CLI_FAIL_ON_VALUES).ok, false);
 * ```
 */
export function readFailOn(
  text: string,
  accepted: readonly FailOn[] = FAIL_ON_VALUES,
): Result<FailOn> {
  const value = text.trim() === "insufficient" ? "inconclusive" : text.trim();
  return (accepted as readonly string[]).includes(value)
    ? ok(value as FailOn)
    : err(problem(`\`${text}\` is not one of ${accepted.join(", ")}`));
}

/**
 * The exit code a verdict earns, as `tailgate run`, `merge`, `compare` and `ab` exit (docs/cli.md):
 * 4 when the target stopped answering, 0 pass, 1 fail, 3 invalid; for inconclusive, 3 when
 * `failOn` (default `inconclusive-sampling`: an SLO too few requests left undecided, not a gate
 * the runner left undecided) makes it red, else 0. `allowInconclusive` is `failOn: "fail"`. A set of gates with no run
 * behind them (`tailgate compare`) is `exitCodeOf(gatesVerdict(verdicts))`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { exitCodeOf } from "./fail_on.ts";
 * assert.equal(exitCodeOf({ status: "inconclusive", regressionOnly: true }), 0); // a warning
 * assert.equal(exitCodeOf({ status: "inconclusive", runnerOnly: true }), 0); // the runner's: a warning
 * assert.equal(exitCodeOf({ status: "inconclusive" }), 3); // an SLO too few requests decide
 * assert.equal(exitCodeOf({ status: "inconclusive" }, { failOn: "fail" }), 0);
 * ```
 */
export function exitCodeOf(
  verdict: VerdictScope & Pick<RunVerdict, "targetLost">,
  options: { failOn?: FailOn; allowInconclusive?: boolean } = {},
): ExitCode {
  if (verdict.targetLost !== undefined) return EXIT_CODES.unreachable;
  switch (verdict.status) {
    case "pass":
      return EXIT_CODES.ok;
    case "fail":
      return EXIT_CODES.gateFailed;
    case "inconclusive": {
      const failOn = options.failOn ?? (options.allowInconclusive ? "fail" : DEFAULT_FAIL_ON);
      return failsUnder(verdict, failOn) ? EXIT_CODES.invalidRun : EXIT_CODES.ok;
    }
    case "invalid":
      return EXIT_CODES.invalidRun;
  }
}
