import assert from "node:assert/strict";
import { checkLines } from "../../../reporters/figures/check_lines.ts";
import { renderHtml, renderJunit, renderMarkdown, renderTerminal } from "../../../reporters/mod.ts";
import { gateRun, judgedRun } from "../_judged_results.ts";
import type { RunResult } from "../../../runner/model/run_result.ts";

const check = (text: string, evaluated: number, failed: number) => ({
  text,
  line: 7,
  evaluated,
  failed,
});

/** gateRun's result with checks on `GET /b` in both stages (the first is warmup). */
function withChecks(): RunResult {
  const result = gateRun();
  result.stages[0].labels[0].checks = [check("/id exists", 100, 100)];
  result.stages[1].labels[1].checks = [
    check("/id exists", 5000, 0),
    check("/state == open", 5000, 12),
  ];
  return result;
}

Deno.test("check lines: failing checks first, counts of the measured stages, warmup left out", () => {
  const { lines, hidden } = checkLines(withChecks());
  assert.deepEqual({ lines, hidden }, {
    lines: [
      "12 of 5,000 `/state == open` failed on `GET /b`",
      "0 of 5,000 `/id exists` failed on `GET /b`",
    ],
    hidden: 0,
  });
});

Deno.test("check lines add a label's check over its measured stages, and cut at the limit", () => {
  const result = withChecks();
  result.stages.push({ ...result.stages[1], index: 2 });
  const { lines, hidden } = checkLines(result, 1);
  assert.deepEqual([lines, hidden], [["24 of 10,000 `/state == open` failed on `GET /b`"], 1]);
});

Deno.test("every report says each check's failures; a run without checks says nothing of them", async () => {
  const reports = (r: RunResult) => [
    renderTerminal(r, { color: false }),
    renderMarkdown(r),
    renderHtml(r),
    renderJunit(r),
  ];
  const judged = await judgedRun();
  const checked = structuredClone(judged);
  const label = checked.stages.find((s) => !s.warmup)!.labels[0];
  label.checks = [check("/state == open", 5000, 12)];
  for (const text of reports(checked)) {
    const code = (t: string) => text.includes("<html") ? `<code>${t}</code>` : `\`${t}\``;
    assert.ok(
      text.includes(`12 of 5,000 ${code("/state == open")} failed on ${code(label.label)}`),
    );
  }
  for (const text of reports(judged)) assert.doesNotMatch(text, /failed on /);
});
