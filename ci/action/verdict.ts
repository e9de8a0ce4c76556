/**
 * The CI verdict of a set of plan runs and the exit code the job ends with, by `fail-on`.
 *
 * @module
 */
import { EXIT_CODES } from "../../runner/cli/exit_codes.ts";
import type { RunResult, VerdictStatus } from "../../runner/result/run_result.ts";
import { overallStatus } from "../../reporters/overall_status.ts";

/** What turns the job red: see docs/ci.md. */
export type FailOn = "insufficient" | "fail" | "never";

/** The values `fail-on` accepts, strictest first. */
export const FAIL_ON_VALUES: readonly FailOn[] = ["insufficient", "fail", "never"];

const SEVERITY: Record<VerdictStatus, number> = { pass: 0, insufficient: 1, fail: 2, invalid: 3 };

/**
 * One plan's verdict from `tailgate`'s exit code and the result it wrote (if any), read as every
 * report reads it (reporters/overall_status.ts): exit 1 is `fail` only when the result failed (a
 * crash also exits 1), exit 3 is `insufficient` only for a sound run whose worst verdict is
 * `insufficient`; any other non-zero exit is `invalid`.
 *
 * @example
 * ```ts
 * import { planVerdict } from "./verdict.ts";
 * planVerdict(4, undefined); // "invalid": the target was unreachable
 * ```
 */
export function planVerdict(exitCode: number, result: RunResult | undefined): VerdictStatus {
  if (exitCode === EXIT_CODES.ok) return "pass";
  const status = result ? overallStatus(result).status : "invalid";
  if (exitCode === EXIT_CODES.gateFailed && status === "fail") return "fail";
  if (exitCode === EXIT_CODES.invalidRun && status === "insufficient") return "insufficient";
  return "invalid";
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
