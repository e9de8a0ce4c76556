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
