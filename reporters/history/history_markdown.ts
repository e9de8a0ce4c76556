/**
 * history.md: the history document as Markdown (a CI job summary, a pull-request comment). The
 * verdict, the settings the changes were found with, then per plan its runs, each change in
 * words and as a table row, each series' minimum change and why, and the notes; a plan without a change says so plainly. Reads only
 * the document; every plan-controlled text is escaped by `markdownText`.
 *
 * @module
 */
import type { HistoryReport, PlanHistory } from "../../runner/model/mod.ts";
import { markdownTable, markdownText } from "../text/mod.ts";
import { CHANGE_HEADER, changeCells, changeRow, type PhrasePart } from "./change_row.ts";
import { runsSummary } from "./history_figures.ts";
import { shortCommit } from "../../runner/model/mod.ts";
import { MIN_CHANGE_HEADER, minChangeRows, settingsText } from "./history_settings.ts";

/** A commit phrase in Markdown: commits by their first 7 characters. */
function commitsMarkdown(parts: PhrasePart[]): string {
  return markdownText(parts.map((p) => "commit" in p ? shortCommit(p.commit) : p.text).join(""));
}

/** How the list marks a change: worse in bold, an interval that includes no change as unclear. */
const LIST_MARKS = { worse: "**worse**", better: "better", unclear: "unclear" } as const;

function planMarkdown(plan: PlanHistory): string[] {
  const rows = plan.changes.map((c) => changeRow(plan, c));
  const changes = rows.length === 0
    ? [
      `No change found in ${plan.runs.length} run${
        plan.runs.length === 1 ? "" : "s"
      }: every series held its level.`,
    ]
    : [
      ...plan.changes.map((c, i) =>
        `- ${LIST_MARKS[rows[i].direction]}: ${
          markdownText(c.text || `${rows[i].metric} of ${rows[i].place} ${rows[i].change}`)
        }`
      ),
      "",
      ...markdownTable(
        CHANGE_HEADER,
        CHANGE_HEADER.map((_, i) => (i === 6 || i === 7 ? "right" : "left")),
        rows.map((r) => changeCells(r, (s) => markdownText(s), commitsMarkdown)),
      ),
    ];
  const minimums = minChangeRows(plan);
  const minimumTable = minimums.length === 0 ? [] : [
    "**Minimum change per series**",
    "",
    ...markdownTable(
      MIN_CHANGE_HEADER,
      ["left", "left", "right", "left"],
      minimums.map((r) => r.map((c) => markdownText(c))),
    ),
    "",
  ];
  return [
    `## ${markdownText(plan.plan)}`,
    "",
    `${markdownText(runsSummary(plan))}; plan ${markdownText(plan.planFile)}, history ` +
    `${markdownText(plan.source)}.`,
    "",
    ...changes,
    "",
    ...minimumTable,
    ...(plan.notes.length === 0
      ? []
      : ["**Notes**", "", ...plan.notes.map((n) => `- ${markdownText(n)}`), ""]),
  ];
}

/**
 * Renders history.md.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { historyMarkdown } from "./history_markdown.ts";
 * const md = historyMarkdown({
 *   schema: "tailgate-history", version: 1, tailgateVersion: "0.0.0", generatedAt: "2026-11-27T08:00:00Z",
 *   settings: { maxPValue: 0.001, windowRuns: 50, minMagnitude: 0.05, failRecent: 0 },
 *   plans: [], verdict: { status: "pass", message: "no history to judge" },
 * });
 * assert.ok(md.startsWith("# tailgate history"));
 * ```
 */
export function historyMarkdown(report: HistoryReport): string {
  const v = report.verdict;
  return [
    "# tailgate history",
    "",
    `**${v.status.toUpperCase()}**: ${markdownText(v.message)}`,
    "",
    `${markdownText(settingsText(report.settings))} Made ${
      markdownText(report.generatedAt)
    } by tailgate ${markdownText(report.tailgateVersion)}.`,
    "",
    ...(report.plans.length === 0 ? ["No plan's history was read.", ""] : []),
    ...report.plans.flatMap(planMarkdown),
  ].join("\n");
}
