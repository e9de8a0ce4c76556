import assert from "node:assert/strict";
import { journeyRows } from "../../../reporters/figures/journey_rows.ts";
import { renderMarkdown } from "../../../reporters/text/markdown.ts";
import { renderTerminal } from "../../../reporters/text/terminal.ts";
import { judge } from "../../../runner/api/judge.ts";
import { gateResult } from "../../_helpers/gate_fixtures.ts";
import { journeyResult } from "../_journey_results.ts";

Deno.test("a journey's row and its steps' over the measured stages: counts, journey time, think", () => {
  const rows = journeyRows(journeyResult())!;
  assert.deepEqual(
    rows.map((r) => [r["journey / step"], r.started, r.completed, r.failed, r.skipped]),
    [
      ["order", "100", "90", "10", "-"],
      ["  order / a", "-", "100", "10", "0"],
      ["  order / b", "-", "90", "0", "10"],
    ],
  );
  // The warmup's 2 s journeys are left out; think is the mean per completed journey.
  // (Each figure is its histogram bucket's top: 20 ms reads 20.02ms.)
  assert.deepEqual([rows[0].p50, rows[0].max, rows[0].think], ["20.02ms", "40.03ms", "50ms"]);
  assert.deepEqual([rows[2].p50, rows[2].p99], ["10.01ms", "30.02ms"]);
});

Deno.test("a run without journeys has no journey rows", () => {
  assert.equal(
    journeyRows(gateResult([{ ratePerSec: 1, durationMs: 1000, labels: [] }])),
    undefined,
  );
});

Deno.test("the terminal and summary.md show the journey and its steps", async () => {
  const measured = journeyResult();
  const result = (await judge(measured)).result;
  const terminal = renderTerminal(result, { color: false });
  assert.match(terminal, /journey \/ step\s+started\s+completed\s+failed\s+skipped/);
  assert.match(terminal, /\norder\s+100\s+90\s+10\s+-\s+20\.02ms\s+40\.03ms\s+40\.03ms\s+50ms\n/);
  assert.match(terminal, /order \/ b\s+-\s+90\s+0\s+10/);
  const md = renderMarkdown(result);
  assert.match(md, /### Journeys/);
  assert.match(md, /\| \*\*order\*\* \| 100 \| 90 \| 10 \| - \| 20.02ms \|/);
  assert.match(md, /\| order \/ b \| - \| 90 \| 0 \| 10 \|/);
});
