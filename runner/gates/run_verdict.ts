/**
 * The run's overall verdict, in one place: computed once when the run is judged, stored in the
 * result (`result.verdict`), and read by the exit code, every reporter and the GitHub Action. The
 * order, worst first: a run that stopped early or was tool-limited is `invalid` whatever its gates
 * say; else any `invalid` gate, then `fail`, then `insufficient`; else `pass`.
 *
 * @module
 */
import { EXIT_CODES, type ExitCode } from "../cli/exit_codes.ts";
import type { RunResult, RunVerdict, Verdict, VerdictStatus } from "../result/run_result.ts";

/** Statuses from the worst to the best, the order reports list verdicts in when they sort. */
export const STATUS_SEVERITY: readonly VerdictStatus[] = [
  "fail",
  "invalid",
  "insufficient",
  "pass",
];

/**
 * The worst status among gate verdicts: `invalid`, then `fail`, then `insufficient`, else `pass`.
 *
 * @example
 * ```ts
 * import { worstGateStatus } from "./run_verdict.ts";
 * worstGateStatus([]); // "pass"
 * ```
 */
export function worstGateStatus(verdicts: readonly Pick<Verdict, "status">[]): VerdictStatus {
  const has = (s: VerdictStatus) => verdicts.some((v) => v.status === s);
  return has("invalid")
    ? "invalid"
    : has("fail")
    ? "fail"
    : has("insufficient")
    ? "insufficient"
    : "pass";
}

/**
 * Computes the run's verdict from its gates and its soundness. Call once, after judging; store it.
 *
 * @example
 * ```ts
 * import { computeRunVerdict } from "./run_verdict.ts";
 * // result.verdict = computeRunVerdict(result); // { status: "fail", summary: "3 gates: 1 fail, 2 pass", ... }
 * ```
 */
export function computeRunVerdict(
  result: Pick<RunResult, "verdicts" | "run" | "health">,
): RunVerdict {
  const tally: Record<VerdictStatus, number> = { fail: 0, invalid: 0, insufficient: 0, pass: 0 };
  for (const v of result.verdicts) tally[v.status]++;
  const n = result.verdicts.length;
  const summary = n === 0 ? "no gates" : `${n} gate${n === 1 ? "" : "s"}: ` +
    STATUS_SEVERITY.filter((s) => tally[s] > 0).map((s) => `${tally[s]} ${s}`).join(", ");
  const reason = !result.run.complete
    ? `the run stopped early (${result.run.stopReason})`
    : result.health.toolLimited
    ? "the run was tool-limited"
    : undefined;
  if (reason !== undefined) return { status: "invalid", tally, reason, summary };
  return { status: worstGateStatus(result.verdicts), tally, summary };
}

/**
 * The result's stored verdict, or, for a result written before verdicts were stored (format
 * version 1) or not judged yet, the same computation.
 *
 * @example
 * ```ts
 * import { runVerdictOf } from "./run_verdict.ts";
 * // runVerdictOf(result).status
 * ```
 */
export function runVerdictOf(
  result: Pick<RunResult, "verdict" | "verdicts" | "run" | "health">,
): RunVerdict {
  return result.verdict ?? computeRunVerdict(result);
}

/**
 * The exit code a verdict earns (docs/cli.md): 0 pass, 1 fail, 3 invalid or insufficient (0 for
 * insufficient when `allowInsufficient`).
 *
 * @example
 * ```ts
 * import { runExitCode } from "./run_verdict.ts";
 * runExitCode({ status: "insufficient", tally: { fail: 0, invalid: 0, insufficient: 1, pass: 0 }, summary: "" }, { allowInsufficient: true }); // 0
 * ```
 */
export function runExitCode(
  verdict: Pick<RunVerdict, "status">,
  options: { allowInsufficient?: boolean } = {},
): ExitCode {
  switch (verdict.status) {
    case "pass":
      return EXIT_CODES.ok;
    case "fail":
      return EXIT_CODES.gateFailed;
    case "insufficient":
      return options.allowInsufficient ? EXIT_CODES.ok : EXIT_CODES.invalidRun;
    case "invalid":
      return EXIT_CODES.invalidRun;
  }
}
