/**
 * The job's Markdown summary: a table of the plans and their verdicts, then each plan's
 * `summary.md` as `tailgate` wrote it. It goes to `$GITHUB_STEP_SUMMARY` (the job's summary
 * page) and to `<out>/summary.md` (for a pull-request comment). Plan files and names are plan
 * text: written by `markdownText`, they show no image, link or HTML and ping no one.
 *
 * @module
 */
import type { VerdictStatus } from "../../runner/model/run_result.ts";
import { undecidedWarning, type VerdictScope } from "../../runner/result/read/mod.ts";
import { markdownTable, markdownText } from "../../reporters/text/mod.ts";
import type { PlanOutcome } from "./plan_outcome.ts";

/** GitHub keeps at most 1 MiB of summary per step; a little is left for the closing note. */
export const STEP_SUMMARY_MAX_BYTES = 1024 * 1024 - 4096;

/** A pull-request comment holds at most 65,536 characters; `<out>/summary.md` stays below. */
export const COMMENT_MAX_BYTES = 64_000;

const EXIT_MEANINGS: Record<number, string> = {
  0: "every gate passed, or only regression checks undecided",
  1: "a gate failed",
  2: "invalid plan or usage",
  3: "an SLO undecided, a gate not judged, or the run stopped",
  4: "target unreachable",
  5: "I/O failure",
};

/**
 * The summary of a job's plans, at most `maxBytes` of UTF-8 (the job summary's limit by default;
 * {@linkcode COMMENT_MAX_BYTES} for a comment): plan summaries that do not fit are left out with a
 * note pointing at the artifact.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { renderCiSummary } from "./step_summary.ts";
 * assert.equal(renderCiSummary([], "invalid").startsWith("## tailgate: invalid"), true);
 * ```
 */
export function renderCiSummary(
  outcomes: readonly PlanOutcome[],
  verdict: VerdictStatus | VerdictScope,
  maxBytes: number = STEP_SUMMARY_MAX_BYTES,
): string {
  const job = typeof verdict === "string" ? { status: verdict } : verdict;
  const rows = outcomes.map((o) => [
    markdownText(o.plan),
    markdownText(o.result?.plan.name ?? ""),
    `**${o.verdict}**${
      o.regressionOnly
        ? " (regression checks only: a warning)"
        : o.runnerOnly
        ? " (undecided for the runner's sake: a warning)"
        : ""
    }`,
    `${o.exitCode} (${EXIT_MEANINGS[o.exitCode] ?? "tailgate did not finish"})`,
  ]);
  const warning = undecidedWarning(job);
  const head = [
    `## tailgate: ${job.status}`,
    "",
    ...(warning === undefined ? [] : [`⚠️ ${warning[0].toUpperCase()}${warning.slice(1)}.`, ""]),
    ...(outcomes.length === 0 ? ["No plan ran."] : markdownTable(
      ["plan", "name", "verdict", "exit code"],
      ["left", "left", "left", "left"],
      rows,
    )),
    "",
  ].join("\n");
  const encoder = new TextEncoder();
  let text = head;
  let bytes = encoder.encode(text).length;
  for (const [i, o] of outcomes.entries()) {
    const section = "\n" + sectionOf(o).trimEnd() + "\n";
    const size = encoder.encode(section).length;
    if (bytes + size > maxBytes) {
      const left = outcomes.length - i;
      return text +
        `\n_${left} more plan summar${left === 1 ? "y does" : "ies do"} not fit here: see the ` +
        "reports artifact._\n";
    }
    text += section;
    bytes += size;
  }
  return text;
}

function sectionOf(o: PlanOutcome): string {
  const what = EXIT_MEANINGS[o.exitCode] ?? `tailgate ended with code ${o.exitCode}`;
  const section = o.summaryMd ??
    `### ${markdownText(o.plan)}\n\nNo report: ${what} (exit ${o.exitCode}); see the job log.`;
  // What was not written is said under whatever was: the summary may be all that is left.
  return o.ioFailure === undefined
    ? section
    : `${section.trimEnd()}\n\n**${markdownText(o.ioFailure)}**`;
}

/**
 * Appends `markdown` to the file named by `$GITHUB_STEP_SUMMARY`; does nothing outside GitHub
 * Actions (no such variable).
 */
export async function appendStepSummary(
  markdown: string,
  summaryFile: string | undefined,
): Promise<void> {
  if (!summaryFile) return;
  await Deno.writeTextFile(summaryFile, markdown.endsWith("\n") ? markdown : markdown + "\n", {
    append: true,
  });
}
