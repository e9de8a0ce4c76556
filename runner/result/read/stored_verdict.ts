/**
 * The run's verdict as the result stores it: computed once when the run is judged
 * (runner/gates/run_verdict.ts) and only read afterwards, by the exit code, every report and the
 * GitHub Action.
 *
 * @module
 */
import type { RunResult, RunVerdict } from "../../model/mod.ts";
import type { VerdictScope } from "./verdict_order.ts";

/**
 * The run verdict `result` stores. A result without one was never judged (or is format 1):
 * judging it (`judge()`, or `computeRunVerdict` for an old file) is the caller's step, so this
 * throws.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { runVerdict } from "./stored_verdict.ts";
 * const tally = { fail: 1, invalid: 0, inconclusive: 0, pass: 0 };
 * const verdict = { status: "fail" as const, tally, summary: "1 gate: 1 fail" };
 * assert.equal(runVerdict({ verdict }).status, "fail");
 * assert.throws(() => runVerdict({}), /judge it first/);
 * ```
 */
export function runVerdict(result: Pick<RunResult, "verdict">): RunVerdict {
  if (result.verdict === undefined) {
    throw new Error(
      "the result holds no run verdict: judge it first (judge() returns the judged result)",
    );
  }
  return result.verdict;
}

/**
 * The warning every report shows when the only undecided gates are regression checks, or gates
 * the runner left undecided (runnerOnly): by default a warning, not a failure. Undefined otherwise.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { undecidedWarning } from "./stored_verdict.ts";
 * const warning = undecidedWarning({ status: "inconclusive", regressionOnly: true });
 * assert.match(warning!, /^only regression checks are undecided: a warning/);
 * const runner = undecidedWarning({ status: "inconclusive", runnerOnly: true });
 * assert.match(runner!, /^the undecided gates are undecided for the runner's sake/);
 * assert.equal(undecidedWarning({ status: "inconclusive" }), undefined);
 * ```
 */
export function undecidedWarning(verdict: VerdictScope): string | undefined {
  if (verdict.status !== "inconclusive") return undefined;
  if (verdict.regressionOnly) {
    return "only regression checks are undecided: a warning, not a failure (exit 0), unless the " +
      "run is strict (`--fail-on inconclusive`, the Action's `fail-on: inconclusive`); each check " +
      "says why and what would decide it";
  }
  if (!verdict.runnerOnly) return undefined;
  return "the undecided gates are undecided for the runner's sake (the machine's contention, the " +
    "generator's own delays or schedule, a history too short or scattered), not for want of " +
    "requests: a warning, not a failure (exit 0), unless the run is strict (`--fail-on " +
    "inconclusive` or `inconclusive-slo`); each says why and what would decide it";
}
