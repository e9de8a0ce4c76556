/**
 * Renders a {@linkcode PlanIssue} the way compilers do: `file:line:col: error: message`, the
 * offending line, a caret under the offending part, and the hint.
 *
 * @module
 */
import type { PlanIssue } from "./types.ts";

/**
 * Formats one issue against the plan's text (pass "" when the text could not be read).
 *
 * @example
 * ```ts
 * import { formatIssue } from "./format_issue.ts";
 * const text = "load:\n  stages:\n    - { rate: 20k/s, duration: 60sec }\n";
 * console.log(formatIssue({ severity: "error", file: "p.yaml", path: "load.stages[0].duration",
 *   line: 3, col: 33, length: 5, message: "unknown unit `sec` in `60sec`", hint: "write `60s`" }, text));
 * // p.yaml:3:33: error: unknown unit `sec` in `60sec`
 * //     3 |     - { rate: 20k/s, duration: 60sec }
 * //       |                                ^^^^^
 * //   hint: write `60s`
 * ```
 */
export function formatIssue(issue: PlanIssue, text: string): string {
  const head = `${issue.file}:${issue.line}:${issue.col}: ${issue.severity}: ${issue.message}`;
  const lines = [head];
  const source = text.split(/\r?\n/)[issue.line - 1];
  if (source !== undefined && source.trim() !== "") {
    const gutter = String(issue.line).padStart(5);
    const shown = source.replaceAll("\t", " ");
    const caretCount = Math.max(1, Math.min(issue.length, shown.length - issue.col + 1));
    lines.push(`${gutter} | ${shown}`);
    lines.push(
      `${" ".repeat(gutter.length)} | ${" ".repeat(Math.max(0, issue.col - 1))}${
        "^".repeat(caretCount)
      }`,
    );
  }
  if (issue.hint) lines.push(`  hint: ${issue.hint}`);
  return lines.join("\n");
}
