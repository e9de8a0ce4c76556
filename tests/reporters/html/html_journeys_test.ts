import assert from "node:assert/strict";
import { journeyTable } from "../../../reporters/html/html_journeys.ts";
import { renderHtml } from "../../../reporters/html/html.ts";
import { judge } from "../../../runner/api/judge.ts";
import { gateResult, pointsUs } from "../../_helpers/gate_fixtures.ts";
import { journeyResult } from "../_journey_results.ts";

Deno.test("the HTML report has a journeys card: the journey's row, then its steps'", async () => {
  const measured = journeyResult();
  const result = (await judge(measured)).result;
  const html = renderHtml(result);
  assert.match(html, /<a href="#journeys">Journeys<\/a>/);
  assert.match(html, /<section class="card" id="journeys"><h2>Journeys<\/h2>/);
  const table = journeyTable(result);
  const rows = [...table.matchAll(/<tr>(.*?)<\/tr>/g)].map((m) =>
    [...m[1].matchAll(/<t[dh][^>]*>(.*?)<\/t[dh]>/g)].map((c) => c[1].replace(/<[^>]+>/g, ""))
  );
  assert.deepEqual(rows.map((r) => r.slice(0, 5)), [
    ["journey / step", "started", "completed", "failed", "skipped"],
    ["order", "100", "90", "10", "-"],
    ["↳ order / a", "-", "100", "10", "0"],
    ["↳ order / b", "-", "90", "0", "10"],
  ]);
});

Deno.test("a report of a run without journeys has no journeys card", async () => {
  const measured = gateResult([{
    ratePerSec: 10,
    durationMs: 1000,
    labels: [{ label: "GET /", response: pointsUs([[1000, 10]]) }],
  }]);
  const result = (await judge(measured)).result;
  const html = renderHtml(result);
  assert.doesNotMatch(html, /id="journeys"/);
  assert.doesNotMatch(html, /href="#journeys"/);
});

Deno.test("the HTML health panel shows the journeys' step lag only for a run that has it", async () => {
  const health = (html: string) =>
    html.slice(html.indexOf('id="health"'), html.indexOf('id="plan"'));
  const measured = journeyResult();
  const result = (await judge(measured)).result;
  assert.doesNotMatch(health(renderHtml(result)), /step lag/);
  result.health.stepLag = { ...result.health.sendLag, count: 37 };
  assert.match(
    health(renderHtml(result)),
    /<strong>step lag<\/strong><div class="muted">write − due time, journeys&#39; later steps.*?<\/td><td[^>]*>37<\/td>/,
  );
});
