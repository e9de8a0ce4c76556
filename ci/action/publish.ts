/**
 * Publishes a job's plan outcomes: annotations on the plan files, the Markdown summary (on the
 * job's summary page, and in `<out>/summary.md` sized for a pull-request comment), the step
 * outputs, and the exit code `fail-on` asks for.
 *
 * @module
 */
import { join, resolve } from "node:path";
import { writeFileAtomic } from "../../runner/model/mod.ts";
import { EXIT_CODES } from "../../runner/model/mod.ts";
import type { VerdictStatus } from "../../runner/model/mod.ts";
import {
  abAnnotationsFor,
  type AnnotationPaths,
  annotationsFor,
  planIssueAnnotations,
} from "./annotations.ts";
import type { PlanOutcome } from "./plan_outcome.ts";
import {
  appendStepSummary,
  COMMENT_MAX_BYTES,
  renderCiSummary,
  STEP_SUMMARY_MAX_BYTES,
} from "./step_summary.ts";
import { type FailOn, jobExitCode, jobVerdict } from "./verdict.ts";
import { formatAnnotation, writeOutputs } from "../workflow_commands.ts";
import { DEFAULT_JUNIT_INCONCLUSIVE, type JunitInconclusive } from "../../reporters/mod.ts";

/** Where to publish. */
export interface PublishOptions {
  /** The results folder (`out` input), as given: the outputs name it so. */
  out: string;
  /** The folder `out` is relative to. */
  cwd: string;
  failOn: FailOn;
  /** How the plans' JUnit files write an undecided gate (the job summary says so); default auto. */
  junitInconclusive?: JunitInconclusive;
  paths: AnnotationPaths;
  /** `$GITHUB_OUTPUT`, `$GITHUB_STEP_SUMMARY`; unset outside GitHub Actions. */
  outputFile?: string;
  summaryFile?: string;
  /** Print workflow commands (GitHub Actions only). */
  annotate: boolean;
  /** Further outputs to write with the verdict. */
  extraOutputs?: Record<string, string>;
  /** The history step's section, put after the plans' summaries (docs/ci.md, "History"). */
  historySummary?: string;
  /** A worse new change point with `history-fail: true`: a job that would pass fails (exit 1). */
  historyFailed?: boolean;
}

/** The job's verdict and codes. */
export interface Published {
  verdict: VerdictStatus;
  /** `tailgate`'s code for the worst plan. */
  exitCode: number;
  /** What the job exits with, by `fail-on`. */
  jobExitCode: number;
  summaryPath: string;
}

/**
 * Publishes `outcomes` (none: no plan matched, an invalid job) and returns the codes.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { publishOutcomes } from "./publish.ts";
 * const p = await publishOutcomes([], { out: "tailgate-out", cwd: Deno.cwd(), failOn: "fail",
 *   annotate: false, paths: { workspace: Deno.cwd(), cwd: Deno.cwd() } }, console.log);
 * assert.equal(p.verdict, "invalid");
 * ```
 */
export async function publishOutcomes(
  outcomes: readonly PlanOutcome[],
  options: PublishOptions,
  print: (line: string) => void,
): Promise<Published> {
  const job = jobVerdict(outcomes);
  const verdict = job.status;
  const exitCode = outcomes.find((o) => o.verdict === verdict)?.exitCode ?? EXIT_CODES.usage;
  const gateCode = jobExitCode(job, exitCode, options.failOn);
  const code = gateCode === 0 && options.historyFailed ? EXIT_CODES.gateFailed : gateCode;
  if (options.annotate) {
    const lines = outcomes.flatMap((o) => [
      ...(o.result
        ? annotationsFor(o.result, options.paths, options.failOn)
        : planIssueAnnotations(o.stderr, options.paths, [o.plan])),
      // An A/B comparison's gates, as a run's are (its plan's notes come from its stderr above).
      ...(o.ab ? abAnnotationsFor(o.ab, options.paths, options.failOn) : []),
      // Files not written (exit 5) are told apart from a failed gate, whatever the result says.
      ...(o.ioFailure === undefined ? [] : [formatAnnotation({
        level: "error",
        title: "tailgate: I/O failure",
        message: `${o.plan}: ${o.ioFailure}`,
      })]),
    ]);
    for (const line of capAnnotations(lines)) print(line);
  }
  const summaryPath = join(options.out, "summary.md");
  const history = options.historySummary ? `\n${options.historySummary.trimEnd()}\n` : "";
  const historyBytes = new TextEncoder().encode(history).length;
  const junit = {
    inconclusive: options.junitInconclusive ?? DEFAULT_JUNIT_INCONCLUSIVE,
    failOn: options.failOn,
  };
  await writeFileAtomic(
    resolve(options.cwd, summaryPath),
    renderCiSummary(outcomes, job, COMMENT_MAX_BYTES - historyBytes, junit) + history,
  );
  await appendStepSummary(
    renderCiSummary(outcomes, job, STEP_SUMMARY_MAX_BYTES - historyBytes, junit) + history,
    options.summaryFile,
  );
  await writeOutputs({
    verdict,
    "exit-code": String(exitCode),
    "job-exit-code": String(code),
    "results-dir": options.out,
    "summary-file": summaryPath,
    ...options.extraOutputs,
  }, options.outputFile);
  print(
    `tailgate: ${verdict} over ${outcomes.length} plan(s), exit code ${exitCode}; ` +
      `the job ${code === 0 ? "passes" : `fails (${code})`} with fail-on: ${options.failOn}` +
      ` (junit.xml: undecided gates as junit-inconclusive: ${junit.inconclusive})` +
      (code !== gateCode ? " and history-fail: true (a worse change among the newest runs)" : ""),
  );
  return { verdict, exitCode, jobExitCode: code, summaryPath };
}

/** GitHub shows at most this many error and this many warning annotations per step. */
export const ANNOTATIONS_SHOWN = 10;

/**
 * The annotations GitHub will show, most severe first: errors before warnings, at most
 * {@linkcode ANNOTATIONS_SHOWN} of each, and one notice for those left out (they are in the job
 * summary and the reports).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { capAnnotations } from "./publish.ts";
 * assert.deepEqual(capAnnotations(["::warning::w", "::error::e"]), ["::error::e", "::warning::w"]);
 * ```
 */
export function capAnnotations(lines: readonly string[]): string[] {
  const errors = lines.filter((l) => l.startsWith("::error"));
  const warnings = lines.filter((l) => l.startsWith("::warning"));
  const others = lines.filter((l) => !l.startsWith("::error") && !l.startsWith("::warning"));
  const shown = [
    ...errors.slice(0, ANNOTATIONS_SHOWN),
    ...warnings.slice(0, ANNOTATIONS_SHOWN),
    ...others,
  ];
  const left = errors.length + warnings.length - shown.length + others.length;
  if (left > 0) {
    shown.push(
      `::notice title=tailgate::${left} more annotation${left === 1 ? "" : "s"} (${
        Math.max(0, errors.length - ANNOTATIONS_SHOWN)
      } errors, ${
        Math.max(0, warnings.length - ANNOTATIONS_SHOWN)
      } warnings) are not shown: GitHub shows ${ANNOTATIONS_SHOWN} of each per step; every gate is in the job summary and the reports`,
    );
  }
  return shown;
}
