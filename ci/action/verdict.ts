/**
 * The CI verdict of a set of plan runs and the exit code the job ends with, by `fail-on`.
 *
 * @module
 */
import { EXIT_CODES } from "../../runner/cli/exit_codes.ts";
import type { RunResult, VerdictStatus } from "../../runner/result/run_result.ts";
import { runExitCode, runVerdictOf } from "../../runner/gates/run_verdict.ts";

/** What turns the job red: see docs/ci.md. */
export type FailOn = "insufficient" | "fail" | "never";

/** The values `fail-on` accepts, strictest first. */
export const FAIL_ON_VALUES: readonly FailOn[] = ["insufficient", "fail", "never"];

const SEVERITY: Record<VerdictStatus, number> = { pass: 0, insufficient: 1, fail: 2, invalid: 3 };

/**
 * One plan's verdict: the run verdict its result stores (computed once by the gates), when the
 * process wrote a judged result and exited with the code that verdict earns; `invalid` when it
 * wrote none or exited otherwise (a crash, an unreachable target, a usage error).
 *
 * @example
 * ```ts
 * import { planVerdict } from "./verdict.ts";
 * planVerdict(4, undefined); // "invalid": the target was unreachable
 * ```
 */
export function planVerdict(exitCode: number, result: RunResult | undefined): VerdictStatus {
  if (result === undefined) return exitCode === EXIT_CODES.ok ? "pass" : "invalid";
  const { status } = runVerdictOf(result);
  const earned = runExitCode({ status });
  // allow-insufficient turns an insufficient run's 3 into 0: still the verdict it stored.
  const allowed = status === "insufficient" && exitCode === EXIT_CODES.ok;
  return exitCode === earned || allowed ? status : "invalid";
}

/**
 * The worst of several verdicts: `invalid` over `fail` over `insufficient` over `pass` (a
 * tool-limited run cannot be trusted either way, so it outranks a failed gate).
 *
 * @example
 * ```ts
 * import { worstVerdict } from "./verdict.ts";
 * worstVerdict(["pass", "insufficient", "fail"]); // "fail"
 * ```
 */
export function worstVerdict(verdicts: Iterable<VerdictStatus>): VerdictStatus {
  let worst: VerdictStatus = "pass";
  for (const v of verdicts) if (SEVERITY[v] > SEVERITY[worst]) worst = v;
  return worst;
}

/**
 * The job's exit code: `tailgate`'s own code when the verdict is one `failOn` makes red, else 0.
 * `insufficient` makes every non-pass verdict red (tailgate's default), `fail` lets `insufficient`
 * pass, `never` keeps the job green.
 *
 * @example
 * ```ts
 * import { jobExitCode } from "./verdict.ts";
 * jobExitCode("insufficient", 3, "fail"); // 0
 * jobExitCode("fail", 1, "fail"); // 1
 * ```
 */
export function jobExitCode(verdict: VerdictStatus, exitCode: number, failOn: FailOn): number {
  const red = failOn === "insufficient"
    ? verdict !== "pass"
    : failOn === "fail"
    ? verdict === "fail" || verdict === "invalid"
    : false;
  if (!red) return EXIT_CODES.ok;
  return exitCode === EXIT_CODES.ok ? EXIT_CODES.invalidRun : exitCode;
}
