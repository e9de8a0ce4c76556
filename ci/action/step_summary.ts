/**
 * The job's Markdown summary: a table of the plans and their verdicts, then each plan's
 * `summary.md` as `tailgate` wrote it. It goes to `$GITHUB_STEP_SUMMARY` (the job's summary
 * page) and to `<out>/summary.md` (for a pull-request comment). Plan files and names are plan
 * text: written by `markdownText`, they show no image, link or HTML and ping no one.
 *
 * @module
 */
import type { VerdictStatus } from "../../runner/model/mod.ts";
import {
  DEFAULT_FAIL_ON,
  type FailOn,
  failsUnder,
  gatesVerdict,
  undecidedWarning,
  type VerdictScope,
} from "../../runner/result/mod.ts";
import { markdownTable, markdownText } from "../../reporters/mod.ts";
import {
  DEFAULT_JUNIT_INCONCLUSIVE,
  inconclusiveElement,
  type JunitInconclusive,
} from "../../reporters/mod.ts";
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

/** How the job's JUnit files write an undecided gate: its `junit-inconclusive` and `fail-on`. */
export interface JunitMapping {
  inconclusive: JunitInconclusive;
  failOn: FailOn;
}

/**
 * The summary of a job's plans, at most `maxBytes` of UTF-8 (the job summary's limit by default;
 * {@linkcode COMMENT_MAX_BYTES} for a comment): plan summaries that do not fit are left out with a
 * note pointing at the artifact. When gates were left undecided, a line says how the JUnit files
 * wrote them (`junit`: the job's mapping), since a test view shows a `skipped` one as harmless.
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
  junit: JunitMapping = { inconclusive: DEFAULT_JUNIT_INCONCLUSIVE, failOn: DEFAULT_FAIL_ON },
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
    ...junitLines(outcomes, junit),
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

/**
 * How the JUnit files wrote the job's undecided gates, by element, and the mapping that chose it;
 * nothing when no gate was left undecided.
 */
function junitLines(outcomes: readonly PlanOutcome[], junit: JunitMapping): string[] {
  // `never` is the job's alone: tailgate leveled the gates by its own default.
  const failOn = junit.failOn === "never" ? DEFAULT_FAIL_ON : junit.failOn;
  const written = { skipped: 0, error: 0, failure: 0 };
  const count = (v: Parameters<typeof gatesVerdict>[0][number]) => {
    if (v.status !== "inconclusive") return;
    written[
      inconclusiveElement(failsUnder(gatesVerdict([v]), failOn), junit.inconclusive).element
    ]++;
  };
  for (const o of outcomes) {
    o.result?.verdicts.forEach(count);
    o.ab?.comparisons.forEach((c) => count({ kind: "regression", status: c.status }));
    o.ab?.slos.forEach((slo) => count({ kind: "slo", status: slo.status, causes: slo.causes }));
  }
  const total = written.skipped + written.error + written.failure;
  if (total === 0) return [];
  const as = (n: number, what: string) => n === 0 ? [] : [`${n} as ${what}`];
  const how = [
    ...as(written.skipped, "`skipped` (test views count those as neither passed nor failed)"),
    ...as(written.error, "`error`"),
    ...as(written.failure, "`failure`"),
  ].join(", ");
  const mapping = {
    auto: `\`junit-inconclusive: auto\` writes each as \`fail-on: ${failOn}\` levels it (an ` +
      "`error` when it turns the job red, else `skipped`)",
    skipped: "`junit-inconclusive: skipped` writes every one `skipped`",
    failure: "`junit-inconclusive: failure` writes every one as a failed test",
  }[junit.inconclusive];
  const hint = written.skipped > 0
    ? "; `junit-inconclusive: failure` counts each as a failed test"
    : "";
  return [
    `**JUnit:** of ${total} undecided gate${total === 1 ? "" : "s"}, junit.xml writes ${how}. ` +
    `${mapping}${hint}.`,
    "",
  ];
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
