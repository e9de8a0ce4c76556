import assert from "node:assert/strict";
import { formatIssue } from "../../../runner/plan/format_issue.ts";
import type { PlanIssue } from "../../../runner/plan/types.ts";

const issue: PlanIssue = {
  severity: "error",
  file: "plans/p.yaml",
  path: "load.stages[0].duration",
  line: 2,
  col: 29,
  length: 5,
  message: "unknown unit `sec` in `60sec`",
  hint: "write `60s`",
};

Deno.test("formatIssue() prints file:line:col, the line, a caret under the part and the hint", () => {
  const text = "load:\n  - { rate: 1k/s, duration: 60sec }\n";
  assert.equal(
    formatIssue(issue, text),
    [
      "plans/p.yaml:2:29: error: unknown unit `sec` in `60sec`",
      "    2 |   - { rate: 1k/s, duration: 60sec }",
      "      |                             ^^^^^",
      "  hint: write `60s`",
    ].join("\n"),
  );
});

Deno.test("formatIssue() leaves out the snippet when the text is unavailable", () => {
  assert.equal(
    formatIssue({ ...issue, hint: undefined, severity: "warning" }, ""),
    "plans/p.yaml:2:29: warning: unknown unit `sec` in `60sec`",
  );
});

Deno.test("formatIssue() shows a window of a very long line, the caret still under the issue", () => {
  const text = `a: ${"x".repeat(5000)}BAD${"y".repeat(5000)}\n`;
  const long: PlanIssue = { ...issue, line: 1, col: 5004, length: 3, hint: undefined };
  const [, shown, carets] = formatIssue(long, text).split("\n");
  assert.ok(shown.length < 200, `${shown.length} characters shown`);
  assert.ok(shown.includes("…x") && shown.endsWith("y…"));
  assert.equal(shown.slice(carets.indexOf("^"), carets.lastIndexOf("^") + 1), "BAD");
});
