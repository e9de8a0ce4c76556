import assert from "node:assert/strict";
import { renderSearchHtml } from "../../../reporters/search/search_html.ts";
import { searchChartData } from "../../../reporters/search/search_chart_data.ts";
import { searchResult } from "../../_helpers/search_fixtures.ts";

Deno.test("searchChartData() gives every step's latencies in ms, the bracket and the latency SLOs", () => {
  const data = searchChartData(searchResult());
  assert.equal(data.points.length, 5);
  assert.deepEqual(data.points[2], {
    ratePerSec: 2_000,
    outcome: "fail",
    soak: false,
    p50Ms: 1,
    p99Ms: 25,
    p999Ms: 6,
    maxMs: 9,
  });
  assert.deepEqual(data.bracket, { passPerSec: 1_500, failPerSec: 2_000 });
  // The sustainable_rate SLO is no latency bound.
  assert.deepEqual(data.bounds, [{ text: "p99 < 10ms", series: "p99", boundMs: 10 }]);
});

Deno.test("renderSearchHtml() holds the verdict, every gate and step as text, plan text escaped", () => {
  const html = renderSearchHtml(searchResult());
  assert.match(html, /<title>PASS: orders \| \*api\* capacity search · tailgate<\/title>/);
  assert.match(html, /<h1>PASS: sustainable rate 1\.5k\/s \(fails at 2k\/s: p99 &lt; 10ms\)<\/h1>/);
  assert.match(html, /<td>sustainable_rate &gt;= 1k\/s<\/td>/);
  assert.equal((html.match(/<tr>/g) ?? []).length >= 5 + 1 + 1, true);
  const none = renderSearchHtml(searchResult({
    verdict: { status: "inconclusive", message: "no rate held", gates: [] },
  }));
  assert.match(none, /No gate: add e\.g\. <code>sustainable_rate &gt;= 20k\/s<\/code>/);
});
