/**
 * The CI verdict of a set of plan runs and the exit code the job ends with, by `fail-on` (the
 * policy itself is runner/result/read/fail_on.ts, shared with `tailgate --fail-on`).
 *
 * @module
 */
import { EXIT_CODES } from "../../runner/model/mod.ts";
import type { RunResult, RunVerdict, VerdictStatus } from "../../runner/model/mod.ts";
import {
  CLI_FAIL_ON_VALUES,
  exitCodeOf,
  FAIL_ON_VALUES,
  type FailOn,
  failsUnder,
} from "../../runner/result/mod.ts";
import { type VerdictScope, worstStatus } from "../../runner/result/mod.ts";

export { FAIL_ON_VALUES, type FailOn, type VerdictScope };

/**
 * One plan's verdict: the run verdict its result stores (computed once by the gates), when the
 * process wrote a judged result and exited with the code that verdict earns; `invalid` when it
 * wrote none, or one that holds no verdict (never judged), or exited otherwise (a crash, an
 * unreachable target, a usage error), and on an I/O
 * failure (exit 5: a report, the result or the history was not written), whatever the stored
 * verdict says: the job must neither pass nor read as a failed gate when its files are missing.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { planVerdict } from "./verdict.ts";
 * assert.equal(planVerdict(4, undefined), "invalid"); // the target was unreachable
 * ```
 */
export function planVerdict(exitCode: number, result: RunResult | undefined): VerdictStatus {
  if (exitCode === EXIT_CODES.ioFailed) return "invalid";
  if (result === undefined) return exitCode === EXIT_CODES.ok ? "pass" : "invalid";
  // A judged result whose target stopped answering is the server's failure (exit 4).
  const verdict = result.verdict;
  if (verdict === undefined) return "invalid";
  return earnedCodes(verdict).includes(exitCode) ? verdict.status : "invalid";
}

/**
 * The exit codes `tailgate` ends with for `verdict`, one for each `--fail-on` it accepts: an
 * inconclusive run exits 3 or 0 by how strict it was asked to be, and is the verdict it stored
 * either way.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { earnedCodes } from "./verdict.ts";
 * // --fail-on inconclusive, inconclusive-slo, inconclusive-sampling, fail:
 * assert.deepEqual(earnedCodes({ status: "inconclusive", regressionOnly: true }), [3, 0, 0, 0]);
 * assert.deepEqual(earnedCodes({ status: "inconclusive", runnerOnly: true }), [3, 3, 0, 0]);
 * assert.deepEqual(earnedCodes({ status: "fail" }), [1, 1, 1, 1]);
 * ```
 */
export function earnedCodes(verdict: VerdictScope & Pick<RunVerdict, "targetLost">): number[] {
  return CLI_FAIL_ON_VALUES.map((failOn) => exitCodeOf(verdict, { failOn }));
}

/**
 * The job's verdict: the worst plan's status; when it is `inconclusive`, `regressionOnly` if every
 * inconclusive plan is so only by its regression checks, `runnerOnly` if only by gates the runner
 * left undecided.
 */
export function jobVerdict(
  outcomes: readonly { verdict: VerdictStatus; regressionOnly?: true; runnerOnly?: true }[],
): VerdictScope {
  if (outcomes.length === 0) return { status: "invalid" };
  const status = worstStatus(outcomes.map((o) => o.verdict));
  if (status !== "inconclusive") return { status };
  const undecided = outcomes.filter((o) => o.verdict === "inconclusive");
  return {
    status,
    ...(undecided.every((o) => o.regressionOnly) ? { regressionOnly: true as const } : {}),
    ...(undecided.every((o) => o.runnerOnly || o.regressionOnly)
      ? { runnerOnly: true as const }
      : {}),
  };
}

/**
 * The job's exit code: `tailgate`'s own code when `failOn` makes the verdict red (fail_on.ts),
 * else 0. `inconclusive` makes every non-pass verdict red; `inconclusive-sampling` (the default)
 * lets a verdict that only the runner left undecided (its contention, the generator's delays, the
 * history) pass, as a warning; `inconclusive-slo` lets only one that regression checks alone left
 * undecided pass; `fail` lets every inconclusive pass; `never` keeps the job green.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { jobExitCode } from "./verdict.ts";
 * assert.equal(jobExitCode({ status: "inconclusive" }, 3, "fail"), 0);
 * assert.equal(jobExitCode({ status: "inconclusive", regressionOnly: true }, 0, "inconclusive"), 3);
 * assert.equal(jobExitCode({ status: "fail" }, 1, "fail"), 1);
 * ```
 */
export function jobExitCode(verdict: VerdictScope, exitCode: number, failOn: FailOn): number {
  if (!failsUnder(verdict, failOn)) return EXIT_CODES.ok;
  return exitCode === EXIT_CODES.ok ? EXIT_CODES.invalidRun : exitCode;
}
