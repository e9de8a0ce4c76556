/**
 * The library's front door for judging: {@linkcode judge} decides a measured result's gates
 * (its plan's SLOs and, when more than 1% of the requests failed without an `error_rate` SLO,
 * the implicit error gate; then the regression gate against a stored history when a baseline
 * directory is given) and returns the judged run: a new result document with the verdicts and the
 * run's overall verdict stored in it, beside the judgement; the result given is left as it was
 * (`tailgate run`, `search` and `ab` write the judged document). A failed gate is a verdict, never
 * an exception; `exitCodeOf` turns the verdict into the CLI's exit code
 * (runner/result/read/fail_on.ts).
 *
 * @module
 */
import {
  confirmJudgement,
  type Judgement as GatesJudgement,
  judgeRun,
  rerunVerdicts,
  wantsRerun,
} from "../gates/mod.ts";
import { historyName, loadHistoryFile } from "../history/mod.ts";
import { fileRun } from "./file_run.ts";
import type { ConfirmOptions } from "../gates/mod.ts";
import type { JudgeOptions } from "./judge_options.ts";
import type { RunResult, RunVerdict, Verdict } from "../model/mod.ts";

export type { JudgeOptions } from "./judge_options.ts";

/** What {@linkcode judge} decided (also stored in the judged result). */
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

/** A judged run: the result document as written and read, and what judging it decided. */
export interface JudgedRun {
  /** The result with the judgement stored in it (`verdicts`, `verdict`, `baseline`, `warnings`). */
  result: RunResult;
  /** What judging decided: the verdicts, the run verdict, notes, and the files at fault. */
  judgement: Judgement;
}

/**
 * Judges `result` and returns the judged run, in order: the plan's history read (with
 * `baselineDir`), the gates judged (runner/gates/judge_run.ts, which change nothing),
 * `--confirm`'s reruns measured and judged alike, the run filed into the history (when
 * `updateBaseline` is set and the run is sound and complete); then the judged document, a new one
 * (`verdicts`, `verdict`, `baseline`, `warnings` stored in it), beside what was decided. `result`
 * is left as it was.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { exitCodeOf, judge, parsePlanText, measureRun, startTarget } from "../../mod.ts";
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
 * const measured = await measureRun(plan!);
 * const { result, judgement: { verdict, verdicts } } = await judge(measured);
 * assert.equal(verdicts.length, 1);
 * assert.equal(result.verdict, verdict); // the judged document stores it
 * assert.equal(measured.verdict, undefined); // the measured one is left as it was
 * // fail (exit 1); inconclusive only when the machine could not send the load or kept the
 * // target from a CPU: then a warning (exit 0), never a pass
 * assert.notEqual(verdict.status, "pass");
 * if (verdict.status === "fail") assert.equal(exitCodeOf(verdict), 1);
 * ```
 */
export async function judge(result: RunResult, options: JudgeOptions = {}): Promise<JudgedRun> {
  // The history is read here, judged by the gates without a file, and the run filed after.
  const dir = options.baselineDir;
  const read = dir === undefined
    ? undefined
    : { dir, loaded: await loadHistoryFile(dir, historyName(result.plan)) };
  // `tailgate run` offers no stopped run to the history: it says so instead.
  const keptOut = options.updateBaseline === true && options.unfiledWhenStopped === true &&
    !result.run.complete && dir !== undefined;
  const updateBaseline = (options.updateBaseline ?? false) && !keptOut;
  const policy = {
    updateBaseline,
    ...(options.keepRuns === undefined ? {} : { keepRuns: options.keepRuns }),
  };
  const judged = options.confirm
    ? await confirmed(result, judgeRun(result, read, policy), options.confirm)
    : judgeRun(result, read, policy);
  const filed = await fileRun(
    judgedResult(result, judged, []),
    { ...options, updateBaseline },
    judged.damaged,
    judged.stages,
  );
  const notes = [...judged.notes, ...filed.notes];
  const warnings = [...filed.warnings];
  if (keptOut) {
    const why = `the run stopped early (${result.run.stopReason}), so the history in ${dir} ` +
      "was left as it was";
    notes.push(`baseline not updated: ${why}`);
    warnings.push(`this run was not stored: ${why}`);
  }
  return {
    result: judgedResult(result, judged, warnings),
    judgement: {
      verdict: judged.verdict,
      verdicts: judged.verdicts,
      notes,
      ioFailures: filed.ioFailures,
    },
  };
}

/**
 * `--confirm`: reruns `result`'s plan while a gate a rerun could change is unsettled, as far as
 * `confirm.times` allows, judges each rerun as the run was, and settles the gates by them.
 */
async function confirmed(
  result: RunResult,
  judged: GatesJudgement,
  confirm: ConfirmOptions,
): Promise<GatesJudgement> {
  const reruns: Verdict[][] = [];
  while (wantsRerun(result, judged, confirm.times, reruns)) {
    reruns.push(rerunVerdicts(await confirm.rerun(), judged));
  }
  return confirmJudgement(result, judged, confirm.times, reruns);
}

/**
 * The judged document, the one place it is made: a copy of `result` with `judged` stored in it,
 * then `filed` (the warnings filing the run brought), in the order result.json has always had
 * them. `result` is left as it was.
 */
function judgedResult(result: RunResult, judged: GatesJudgement, filed: string[]): RunResult {
  const document = { ...result, verdicts: judged.verdicts };
  if (judged.baseline) document.baseline = judged.baseline;
  if (judged.warnings.length > 0) {
    document.warnings = [...(document.warnings ?? []), ...judged.warnings];
  }
  document.verdict = judged.verdict;
  if (filed.length > 0) document.warnings = [...(document.warnings ?? []), ...filed];
  return document;
}
