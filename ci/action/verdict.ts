/**
 * The CI verdict of a set of plan runs and the exit code the job ends with, by `fail-on`.
 *
 * @module
 */
import { EXIT_CODES } from "../../runner/model/exit_codes.ts";
import type { RunResult, VerdictStatus } from "../../runner/model/run_result.ts";
import { runExitCode, runVerdictOf } from "../../runner/gates/run_verdict.ts";

/** What turns the job red: see docs/ci.md. */
export type FailOn = "inconclusive" | "fail" | "never";

/** The values `fail-on` accepts, strictest first. */
export const FAIL_ON_VALUES: readonly FailOn[] = ["inconclusive", "fail", "never"];

const SEVERITY: Record<VerdictStatus, number> = { pass: 0, inconclusive: 1, invalid: 2, fail: 3 };

/**
 * One plan's verdict: the run verdict its result stores (computed once by the gates), when the
 * process wrote a judged result and exited with the code that verdict earns; `invalid` when it
 * wrote none or exited otherwise (a crash, an unreachable target, a usage error), and on an I/O
 * failure (exit 5: a report, the result or the history was not written), whatever the stored
 * verdict says: the job must neither pass nor read as a failed gate when its files are missing.
 *
 * @example
 * ```ts
 * import { planVerdict } from "./verdict.ts";
 * planVerdict(4, undefined); // "invalid": the target was unreachable
 * ```
 */
export function planVerdict(exitCode: number, result: RunResult | undefined): VerdictStatus {
  if (exitCode === EXIT_CODES.ioFailed) return "invalid";
  if (result === undefined) return exitCode === EXIT_CODES.ok ? "pass" : "invalid";
  // A judged result whose target stopped answering is the server's failure (exit 4).
  const verdict = runVerdictOf(result);
  const { status } = verdict;
  const earned = runExitCode(verdict);
  // allow-inconclusive turns an inconclusive run's 3 into 0: still the verdict it stored.
  const allowed = status === "inconclusive" && exitCode === EXIT_CODES.ok;
  return exitCode === earned || allowed ? status : "invalid";
}

/**
 * The worst of several verdicts: `fail` over `invalid` over `inconclusive` over `pass`, the order
 * of one run's verdict (runner/gates/run_verdict.ts): a fail is decided beyond doubt.
 *
 * @example
 * ```ts
 * import { worstVerdict } from "./verdict.ts";
 * worstVerdict(["pass", "inconclusive", "fail"]); // "fail"
 * ```
 */
export function worstVerdict(verdicts: Iterable<VerdictStatus>): VerdictStatus {
  let worst: VerdictStatus = "pass";
  for (const v of verdicts) if (SEVERITY[v] > SEVERITY[worst]) worst = v;
  return worst;
}

/**
 * The job's exit code: `tailgate`'s own code when the verdict is one `failOn` makes red, else 0.
 * `inconclusive` makes every non-pass verdict red (tailgate's default), `fail` lets `inconclusive`
 * pass, `never` keeps the job green.
 *
 * @example
 * ```ts
 * import { jobExitCode } from "./verdict.ts";
 * jobExitCode("inconclusive", 3, "fail"); // 0
 * jobExitCode("fail", 1, "fail"); // 1
 * ```
 */
export function jobExitCode(verdict: VerdictStatus, exitCode: number, failOn: FailOn): number {
  const red = failOn === "inconclusive"
    ? verdict !== "pass"
    : failOn === "fail"
    ? verdict === "fail" || verdict === "invalid"
    : false;
  if (!red) return EXIT_CODES.ok;
  return exitCode === EXIT_CODES.ok ? EXIT_CODES.invalidRun : exitCode;
}
