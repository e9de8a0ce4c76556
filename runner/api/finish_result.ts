/**
 * What follows a measured result, for `tailgate run` and `tailgate merge` alike: the gates
 * (SLOs, then the regression gate against the baseline), the reports written atomically, a run's
 * teardown (then the reports again, with its steps), the exit code and the terminal summary.
 *
 * @module
 */
import type { ConfirmOptions } from "../gates/mod.ts";
import { exitCodeOf } from "../result/mod.ts";
import { judge } from "./judge.ts";
import { type TeardownDone, withTeardown } from "./teardown_done.ts";
import { computeRunVerdict } from "../gates/mod.ts";
import type { FailOn } from "../result/mod.ts";
import type { RunResult } from "../model/mod.ts";
import { DEFAULT_RUN_REPORTS, type ReportFormat } from "../../reporters/mod.ts";
import { writeReports } from "../../reporters/mod.ts";
import type { JunitInconclusive } from "../../reporters/mod.ts";
import { renderTerminal, shouldUseColor } from "../../reporters/mod.ts";
import { EXIT_CODES, type ExitCode, withIoFailures } from "../model/mod.ts";

/** Options of {@linkcode finishResult}. */
export interface FinishOptions {
  /** Where result.json and the reports go. */
  outDir: string;
  /** Formats besides result.json, which is always written (default html, junit, md). */
  reports?: readonly ReportFormat[];
  /** Judge the gates (false for one shard's result: `tailgate merge` judges). */
  judge: boolean;
  /** The plans' histories (default none: no regression gate); `tailgate run` gives its default. */
  baselineDir?: string;
  /** File this run in its plan's history (sound, complete runs only). */
  updateBaseline?: boolean;
  /** How many runs the plan's long history keeps (`--history-runs`; default 500). */
  historyRuns?: number;
  /** What turns the exit code non-zero (fail_on.ts; default `inconclusive-sampling`). */
  failOn?: FailOn;
  /** How junit.xml writes an undecided gate (`--junit-inconclusive`; default `auto`). */
  junitInconclusive?: JunitInconclusive;
  /** Colour the summary (default: see {@linkcode defaultColor}). */
  color?: boolean;
  /** Where the HTML report will be found (the Markdown summary links it). */
  reportUrl?: string;
  /** Re-measure regressions before they turn the run red (`tailgate run --confirm N`). */
  confirm?: ConfirmOptions;
  /** Ctrl-C or SIGTERM: stop waiting for the history's lock. */
  signal?: AbortSignal;
  /**
   * The run's teardown (`MeasuredRun.teardown`), sent once the reports are written; they are
   * written again when it added steps or warnings. Stopped (a stop cut it short): exit 3.
   */
  teardown?: () => Promise<TeardownDone>;
}

/** The outcome for cli.ts to print. */
export interface FinishedResult {
  exitCode: ExitCode;
  /** Notes (stderr). */
  notes: string[];
  /**
   * Files not written (a report, the result, the baseline), each naming the file and the cause:
   * errors for stderr, and the reason the exit code is EXIT_CODES.ioFailed.
   */
  ioFailures: string[];
  /** The summary table and the files written (stdout). */
  summary: string;
  /** Files written, by format. */
  paths: Partial<Record<ReportFormat, string>>;
  /** The document written: the judged result with its teardown's steps and warnings. */
  result: RunResult;
}

/**
 * Judges `result` (left as it was: the reports are of the judged document, returned as `result`),
 * writes the reports and returns the exit code the stored run verdict earns, or
 * EXIT_CODES.ioFailed when a report, the result or the baseline asked for was not written
 * (`withIoFailures`).
 */
export async function finishResult(
  result: RunResult,
  options: FinishOptions,
): Promise<FinishedResult> {
  const notes: string[] = [];
  const ioFailures: string[] = [];
  let judged = result;
  if (options.judge) {
    const run = await judge(result, {
      ...(options.baselineDir === undefined ? {} : { baselineDir: options.baselineDir }),
      updateBaseline: options.updateBaseline ?? false,
      unfiledWhenStopped: true,
      ...(options.historyRuns === undefined ? {} : { historyRuns: options.historyRuns }),
      ...(options.confirm ? { confirm: options.confirm } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    const { judgement } = run;
    notes.push(...judgement.notes.filter((n) => !judgement.ioFailures.includes(n)));
    ioFailures.push(...judgement.ioFailures);
    judged = run.result;
  }
  // The verdict is computed once (by judging, or here for a shard's unjudged result) and stored.
  const verdict = judged.verdict ?? computeRunVerdict(judged);
  if (judged.verdict === undefined) judged = { ...judged, verdict };
  const formats = (options.reports ?? DEFAULT_RUN_REPORTS).filter((f) => f !== "json");
  const write = (document: RunResult) =>
    writeReports(document, options.outDir, ["json", ...formats], {
      ...(options.reportUrl ? { htmlUrl: options.reportUrl } : {}),
      ...(options.failOn ? { failOn: options.failOn } : {}),
      ...(options.junitInconclusive ? { junitInconclusive: options.junitInconclusive } : {}),
    });
  let written = await write(judged);
  // What was measured is on disk before the teardown is sent: a teardown that hangs, however it
  // is ended, cannot lose the run. Its steps and warnings then replace those files.
  const teardown = options.teardown ? await options.teardown() : undefined;
  const document = teardown ? withTeardown(judged, teardown) : judged;
  if (teardown?.changed) written = await write(document);
  ioFailures.push(...written.errors);
  const verdictCode = teardown?.stopped
    ? EXIT_CODES.invalidRun
    : exitCodeOf(verdict, options.failOn ? { failOn: options.failOn } : {});
  if (teardown?.stopped) {
    notes.push("stopped during the teardown: the result and the reports hold the whole run");
  }
  const exitCode = withIoFailures(verdictCode, ioFailures);
  const table = renderTerminal(document, { color: options.color ?? defaultColor() });
  const files = Object.values(written.paths).map((p) => `wrote ${p}`);
  const summary = [table, "", ...files].join("\n");
  return { exitCode, notes, ioFailures, summary, paths: written.paths, result: document };
}

/**
 * Whether the summary on standard output gets colour: a terminal, NO_COLOR unset or empty,
 * TERM not dumb, or FORCE_COLOR set.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { defaultColor } from "./finish_result.ts";
 * assert.equal(defaultColor(), false); // when piped
 * ```
 */
export function defaultColor(): boolean {
  return shouldUseColor({
    isTerminal: Deno.stdout.isTerminal(),
    env: {
      NO_COLOR: Deno.env.get("NO_COLOR"),
      FORCE_COLOR: Deno.env.get("FORCE_COLOR"),
      TERM: Deno.env.get("TERM"),
    },
  });
}
