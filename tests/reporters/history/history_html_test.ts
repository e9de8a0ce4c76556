import assert from "node:assert/strict";
import { historyHtml } from "../../../reporters/history/history_html.ts";
import type { HistoryChartData } from "../../../reporters/browser/mod.ts";
import { historyChartData } from "../../../reporters/history/history_chart_data.ts";
import { assertSelfContained, pageScripts as scripts } from "../_page_checks.ts";
import { HOSTILE } from "../../_helpers/report_fixtures.ts";
import { commitOf, historyReport, planHistory, STEP_AT } from "./_history_report.ts";

function embeddedData(html: string): HistoryChartData {
  const json = scripts(html).find((s) => s.attributes.includes('id="tailgate-data"'));
  assert.ok(json, "no data element");
  return JSON.parse(json.text);
}

Deno.test("historyHtml() loads nothing from the network: no remote src or href, a CSP allowing only its scripts", () => {
  const [, script] = assertSelfContained(historyHtml(historyReport()));
  assert.ok(script.includes(".drawHistoryCharts();"), "the history page's script");
});

Deno.test("historyHtml() embeds the chart data as built and a canvas for each chart", () => {
  const report = historyReport();
  const html = historyHtml(report);
  assert.deepEqual(embeddedData(html), historyChartData(report));
  const canvases = [...html.matchAll(/<canvas id="([^"]+)"/g)].map((m) => m[1]);
  assert.deepEqual(canvases, ["history-0-0", "history-0-1", "history-0-2"]);
  assert.match(html, /<input type="checkbox" id="log-latency" checked>/);
});

Deno.test("historyHtml() lists each change with its commits short, the full SHA in a title", () => {
  const html = historyHtml(historyReport());
  const code = (i: number) =>
    `<code title="${commitOf(i)}" style="word-break: normal">${commitOf(i).slice(0, 7)}</code>`;
  assert.ok(
    html.includes(`near ${code(STEP_AT)}, between ${code(STEP_AT - 1)} and ${code(STEP_AT)}`),
  );
  assert.match(html, /<td class="bad">rose 12% \(95% interval \+8\.1% to \+16%\)<\/td>/);
  assert.match(html, /<h1>PASS: no worse change in the newest runs \(report only\)<\/h1>/);
  assert.match(html, /<li>the runner changed at run 41 \(cores: 4 vs 8\)<\/li>/);
  assert.match(
    html,
    /<td class="num">≤ 0\.00067 \(the permutation floor: none of 2999 shuffles reached it\)<\/td>/,
  );
  assert.match(html, /<h3>Minimum change per series<\/h3>/);
  assert.match(
    html,
    /<td>p99<\/td><td>stage steady<\/td><td class="num">2\.1%<\/td><td>3 robust SDs/,
  );
  const none = historyHtml(historyReport([{ ...planHistory(), changes: [] }]));
  assert.match(none, /<p><strong>No change found<\/strong> in 60 runs/);
  assert.doesNotMatch(none, /<table class="changes">/);
});

Deno.test("historyHtml() shows a hostile plan name as text, in the page and in its data", () => {
  const html = historyHtml(historyReport([planHistory(HOSTILE)]));
  assert.ok(!html.includes("<img"), "no injected element");
  assert.equal(html.match(/<\/script>/g)?.length, 3, "only the three script elements end");
  assert.ok(html.includes("&lt;/script&gt;&lt;img src=x onerror=window.pwned=1&gt;"));
  assert.equal(embeddedData(html).plans[0].plan, HOSTILE);
});
