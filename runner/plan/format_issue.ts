/**
 * Renders a {@linkcode PlanIssue} the way compilers do: `file:line:col: error: message`, the
 * offending line, a caret under the offending part, and the hint.
 *
 * @module
 */
import { printable } from "./printable.ts";
import type { PlanIssue } from "./types.ts";

/**
 * Formats one issue against the plan's text (pass "" when the text could not be read).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatIssue } from "./format_issue.ts";
 * const text = "load:\n  stages:\n    - { rate: 20k/s, duration: 60sec }\n";
 * const printed = formatIssue({ severity: "error", file: "p.yaml", path: "load.stages[0].duration",
 *   line: 3, col: 32, length: 5, message: "unknown unit `sec` in `60sec`", hint: "write `60s`" }, text);
 * assert.equal(printed, [
 *   "p.yaml:3:32: error: unknown unit `sec` in `60sec`",
 *   "    3 |     - { rate: 20k/s, duration: 60sec }",
 *   "      |                                ^^^^^",
 *   "  hint: write `60s`",
 * ].join("\n"));
 * ```
 */
export function formatIssue(issue: PlanIssue, text: string): string {
  // Plan text reaches a terminal or a CI log: control characters are shown as escapes, so a
  // plan cannot colour, clear or retitle the screen (the carets follow the escaped text).
  const head = `${printable(issue.file)}:${issue.line}:${issue.col}: ${issue.severity}: ` +
    printable(issue.message);
  const lines = [head];
  const source = text.split(/\r?\n/)[issue.line - 1];
  if (source !== undefined && source.trim() !== "") {
    const gutter = String(issue.line).padStart(5);
    const full = source.replaceAll("\t", " ");
    const caretCount = Math.max(1, Math.min(issue.length, full.length - issue.col + 1));
    // A long line is shown as a window around the issue, so one line cannot flood the terminal.
    const from = full.length > SNIPPET_CHARS ? Math.max(0, issue.col - 1 - SNIPPET_LEAD) : 0;
    const to = Math.min(full.length, from + SNIPPET_CHARS);
    const lead = from > 0 ? "…" : "";
    const raw = lead + full.slice(from, to) + (to < full.length ? "…" : "");
    const at = lead.length + Math.max(0, issue.col - 1 - from);
    const marked = printable(raw.slice(at, Math.min(raw.length, at + caretCount)));
    const before = printable(raw.slice(0, at));
    lines.push(`${gutter} | ${printable(raw)}`);
    lines.push(
      `${" ".repeat(gutter.length)} | ${" ".repeat(before.length)}${
        "^".repeat(Math.max(1, marked.length))
      }`,
    );
  }
  if (issue.hint) lines.push(`  hint: ${printable(issue.hint)}`);
  return lines.join("\n");
}

/** The most characters of a source line shown under an issue, and how many before its column. */
const SNIPPET_CHARS = 120;
const SNIPPET_LEAD = 40;
