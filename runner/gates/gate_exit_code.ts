/**
 * The exit code a set of verdicts earns (docs/cli.md): a run the generator limited is invalid
 * whatever else; a failed gate fails; an unjudgeable percentile fails CI unless allowed.
 *
 * @module
 */
import { EXIT_CODES, type ExitCode } from "../cli/exit_codes.ts";
import type { Verdict } from "../result/run_result.ts";

/**
 * Chooses the exit code: 3 when any verdict is `invalid` (a tool-limited run), else 1 when any
 * `fail`s, else 3 when any is `insufficient` (unless `allowInsufficient`), else 0.
 *
 * @example
 * ```ts
 * import { gateExitCode } from "./gate_exit_code.ts";
 * gateExitCode([{ kind: "slo", name: "p99 < 1ms", status: "fail", stageIndexes: [1], message: "" }]); // 1
 * ```
 */
export function gateExitCode(
  verdicts: readonly Verdict[],
  options: { allowInsufficient?: boolean } = {},
): ExitCode {
  if (verdicts.some((v) => v.status === "invalid")) return EXIT_CODES.invalidRun;
  if (verdicts.some((v) => v.status === "fail")) return EXIT_CODES.gateFailed;
  if (!options.allowInsufficient && verdicts.some((v) => v.status === "insufficient")) {
    return EXIT_CODES.invalidRun;
  }
  return EXIT_CODES.ok;
}
