/**
 * The library's front door for judging: {@linkcode judge} decides a measured result's gates
 * (its plan's SLOs and, when more than 1% of the requests failed without an `error_rate` SLO,
 * the implicit error gate; then the regression gate against a stored history when a baseline
 * directory is given), stores the verdicts and the run's overall verdict in the result, and returns
 * them. A failed gate is a verdict, never an exception; `exitCodeOf` turns the verdict into the
 * CLI's exit code (runner/result/read/fail_on.ts).
 *
 * @module
 */
import { judgeRun } from "../gates/judge_run.ts";
import { historyName, loadHistoryFile } from "../history/mod.ts";
import { fileRun } from "./file_run.ts";
import type { JudgeOptions } from "./judge_options.ts";
import type { RunResult, RunVerdict, Verdict } from "../model/run_result.ts";

export type { JudgeOptions } from "./judge_options.ts";

/** What {@linkcode judge} decided (also stored in the result). */
export interface Judgement {
  /** The run's overall verdict: `pass`, `fail`, `inconclusive` or `invalid`, with its reason. */
  verdict: RunVerdict;
  /** One verdict per gate, in the plan's order, regression gates after the SLOs. */
  verdicts: Verdict[];
  /** Notes for the user (a baseline skipped or updated, a history from another machine). */
  notes: string[];
  /**
   * The history asked for could not be read, written or locked (also among `notes`): the CLI
   * then exits with `EXIT_CODES.ioFailed` (docs/cli.md).
   */
  ioFailures: string[];
}

/**
 * Judges `result` in place (`result.verdicts`, `result.verdict`, `result.warnings`) and returns
 * what it decided. With `baselineDir`, the run is also compared with the plan's stored history
 * there, and appended to it when `updateBaseline` is set and the run is sound and complete.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { exitCodeOf, judge, parsePlanText, runPlan, startTarget } from "../../mod.ts";
 *
 * // Every answer takes 20 ms, so `p99 < 5ms` fails for certain, whatever the machine.
 * await using target = await startTarget({ mode: "fixed", delayMs: 20, port: 0 });
 * const { plan } = parsePlanText(`
 * name: judge-example
 * target: ${target.url}
 * requests: [{ name: GET /, path: / }]
 * load: { connections: 8, stages: [{ name: steady, rate: 100/s, duration: 1s }] }
 * slo: [p99 < 5ms]
 * `);
 * const result = await runPlan(plan!);
 * const { verdict, verdicts } = await judge(result);
 * assert.equal(verdicts.length, 1);
 * // fail (exit 1); inconclusive only when the machine could not send the load or kept the
 * // target from a CPU: then a warning (exit 0), never a pass
 * assert.notEqual(verdict.status, "pass");
 * if (verdict.status === "fail") assert.equal(exitCodeOf(verdict), 1);
 * ```
 */
export async function judge(result: RunResult, options: JudgeOptions = {}): Promise<Judgement> {
  // The history is read here, judged by the gates without a file, and the run filed after.
  const dir = options.baselineDir;
  const read = dir === undefined
    ? undefined
    : { dir, loaded: await loadHistoryFile(dir, historyName(result.plan)) };
  const judged = await judgeRun(result, options, read);
  const filed = await fileRun(result, options, judged.damaged);
  const notes = [...judged.notes, ...filed.notes];
  return {
    verdict: result.verdict!,
    verdicts: result.verdicts,
    notes,
    ioFailures: filed.ioFailures,
  };
}
