import assert from "node:assert/strict";
import { gateSlowest, slowestPanel } from "../../../reporters/html/html_slowest.ts";
import { renderHtml } from "../../../reporters/html/html.ts";
import { HOSTILE, hostileResult, reportResult } from "../../_helpers/report_fixtures.ts";
import { responseUsOf, traceIdOf, withoutSlowest, withSlowest } from "../_slowest_results.ts";

/** Each `<details>` group: its summary text, whether open, its rows' cells as text. */
function groups(html: string): Array<{ summary: string; open: boolean; rows: string[][] }> {
  const text = (h: string) => h.replace(/<[^>]*>/g, "").trim();
  return [
    ...html.matchAll(
      /<details class="slowest"( open)?><summary>(.*?)<\/summary>(.*?)<\/details>/gs,
    ),
  ]
    .map((m) => ({
      summary: text(m[2]),
      open: m[1] !== undefined,
      rows: [...m[3].matchAll(/<tr>(.*?)<\/tr>/gs)].slice(1).map((r) =>
        [...r[1].matchAll(/<td[^>]*>(.*?)<\/td>/gs)].map((c) => text(c[1]))
      ),
    }));
}

Deno.test("slowestPanel() lists each stage × label's ten slowest with trace id, send time, response and status", () => {
  const result = withSlowest(reportResult(), true);
  const html = slowestPanel(result);
  const found = groups(html);
  assert.deepEqual(found.map((g) => g.summary), [
    "Stage 2: steady · GET /cart slowest 14ms",
    "Stage 2: steady · POST /order slowest 19ms",
    "Stage 3: climb · GET /cart slowest 24ms",
    "Stage 3: climb · POST /order slowest 29ms",
    "Stage 1: warm (warmup) · GET /cart slowest 4ms",
    "Stage 1: warm (warmup) · POST /order slowest 9ms",
  ]);
  const climb = result.stages[2];
  const rows = found[3].rows;
  assert.equal(rows.length, 10);
  assert.deepEqual(rows.slice(0, 3), [
    ["1", traceIdOf(2, 1, 0), `${((climb.startMs + 7.25) / 1000).toFixed(3)} s`, "29ms", "200"],
    ["2", traceIdOf(2, 1, 1), `${((climb.startMs + 107.25) / 1000).toFixed(3)} s`, "28.7ms", "503"],
    [
      "3",
      traceIdOf(2, 1, 2),
      `${((climb.startMs + 207.25) / 1000).toFixed(3)} s`,
      "28.4ms",
      "timeout",
    ],
  ]);
  assert.equal(rows[9][3], `${responseUsOf(2, 1, 9) / 1000}ms`);
  // Each trace id is one piece of text a click selects whole.
  assert.ok(html.includes(`<code class="trace-id">${traceIdOf(2, 1, 0)}</code>`));
  assert.ok(!html.includes("no-trace"), "a traced run is not told to trace");
});

Deno.test("slowestPanel() names a percentile's request under each list", () => {
  const html = slowestPanel(withSlowest(reportResult(), true));
  assert.ok(
    html.includes(
      `At its percentiles: p90: <code class="trace-id">${traceIdOf(1, 0, 9)}</code> 11.3ms · p99: `,
    ),
    html,
  );
  assert.match(html, /p99\.99: <code class="trace-id">a{24}00010006<\/code> 12.2ms<\/p>/);
});

Deno.test("slowestPanel() of a run without traceparent drops the column and says how to send one", () => {
  const html = slowestPanel(withSlowest(reportResult(), false));
  assert.ok(!html.includes("trace id</th>"));
  assert.match(html, /This run sent no <code>traceparent<\/code>/);
  assert.match(html, /<code>trace: true<\/code> in the plan \(or <code>--trace<\/code>/);
  assert.equal(groups(html)[0].rows[0].length, 4, "#, sent at, response, status");
  assert.match(html, /p90: 11.3ms \(sent at \d+\.\d{3} s\)/);
});

Deno.test("slowestPanel() is empty for a result that keeps no slow requests", () => {
  assert.equal(slowestPanel(withoutSlowest(reportResult())), "");
});

Deno.test("slowestPanel() opens the measured stages' lists, or only the slowest one's when many", () => {
  const result = withSlowest(reportResult(), true);
  assert.deepEqual(groups(slowestPanel(result)).map((g) => g.open), [
    true,
    true,
    true,
    true,
    false,
    false,
  ]);
  // A fifth measured list: only the list holding the run's slowest request stays open.
  const extra = structuredClone(result.stages[1].labels[0]);
  extra.label = "GET /extra";
  result.stages[1].labels.push(extra);
  assert.deepEqual(
    groups(slowestPanel(result)).filter((g) => g.open).map((g) => g.summary),
    ["Stage 3: climb · POST /order slowest 29ms"],
  );
});

Deno.test("slowestPanel() shows hostile values as text: labels, stage names, ids, percentiles, errors", () => {
  const result = withSlowest(hostileResult(), true);
  const label = result.stages[1].labels[0];
  label.slowest![0].traceId = HOSTILE;
  // deno-lint-ignore no-explicit-any
  (label.slowest![1] as any).error = HOSTILE;
  label.slowest![1].status = 0;
  label.exemplars![0].percentile = HOSTILE;
  const html = slowestPanel(result);
  assert.ok(!html.includes("<img"), "an <img> tag got through");
  assert.ok(!html.includes("<script"), "a script tag got through");
  assert.ok(html.includes("&lt;/script&gt;&lt;img src=x onerror=window.pwned=1&gt;"));
  assert.equal(groups(html)[0].rows[0][1], "–", "a trace id that is not one is left out");
});

Deno.test("renderHtml() puts the slowest requests in the percentile card, under the chart", () => {
  const html = renderHtml(withSlowest(reportResult(), true));
  const card = html.slice(html.indexOf('<section class="card" id="percentiles">'));
  const chart = card.indexOf('id="chart-percentile"');
  const list = card.indexOf('<h3 id="slowest">The 10 slowest requests</h3>');
  assert.ok(chart > 0 && list > chart, "the list follows the chart");
  assert.ok(list < card.indexOf("</section>"), "inside the card");
  assert.ok(
    !renderHtml(withoutSlowest(reportResult())).includes('id="slowest"'),
    "nothing without them",
  );
});

Deno.test("slowestPanel() shows what is whole of a damaged result file, and nothing for junk", () => {
  const result = withSlowest(reportResult(), true);
  for (const s of result.stages) {
    for (const l of s.labels) {
      // deno-lint-ignore no-explicit-any
      (l as any).exemplars = 7;
      // deno-lint-ignore no-explicit-any
      (l as any).slowest = s.index === 2 ? [...l.slowest!.slice(0, 2), "junk", { status: 1 }] : {};
    }
  }
  const found = groups(slowestPanel(result));
  assert.deepEqual(found.map((g) => g.rows.length), [2, 2]);
  assert.ok(!slowestPanel(result).includes("At its percentiles"));
});

Deno.test("slowestPanel() names a gRPC call's status by name", () => {
  const result = withSlowest(reportResult(), true);
  const label = result.stages[1].labels[0];
  label.slowest![0].status = 1014;
  const rows = groups(slowestPanel(result))[0].rows;
  assert.equal(rows[0][4], "UNAVAILABLE");
  assert.equal(rows[1][4], "503", "an HTTP status stays its number");
});

Deno.test("gateSlowest() names a failed latency gate's slowest request and links to the lists", () => {
  const result = withSlowest(reportResult(), true);
  const failed = result.verdicts.find((v) => v.name === "max < 1ms")!;
  const sent = `${((result.stages[2].startMs + 7.25) / 1000).toFixed(3)} s`;
  assert.equal(
    gateSlowest(result, failed),
    `<div class="message slowest-request">Slowest request: <code class="trace-id">` +
      `${traceIdOf(2, 1, 0)}</code>, 29ms, sent at ${sent} (POST /order, climb, 200) · ` +
      `<a href="#slowest">the slowest requests</a></div>`,
  );
  const cart = { ...failed, label: "GET /cart", stageIndexes: [1] };
  result.verdicts.push(cart);
  assert.match(
    gateSlowest(result, cart),
    /a{24}00010000<\/code>, 14ms, sent at [\d.]+ s \(GET \/cart, steady, 200\)/,
  );
  for (const v of result.verdicts.filter((v) => v.status === "pass")) {
    assert.equal(gateSlowest(result, v), "");
  }
  assert.equal(
    gateSlowest(withoutSlowest(reportResult()), failed),
    "",
    "nothing without kept requests",
  );
  const untraced = withSlowest(reportResult(), false);
  assert.match(
    gateSlowest(untraced, untraced.verdicts.find((v) => v.name === "max < 1ms")!),
    /Slowest request: 29ms, sent at/,
  );
});

Deno.test("renderHtml() names the slowest request under a failed latency gate, hostile labels escaped", () => {
  const result = withSlowest(hostileResult(), true);
  const html = renderHtml(result);
  const gates = html.slice(html.indexOf('<section class="card" id="gates">'));
  const notes = gates.slice(0, gates.indexOf("</section>")).match(/slowest-request/g) ?? [];
  assert.equal(
    notes.length,
    result.verdicts.filter((v) => v.status === "fail" && v.unit === "us").length,
  );
  assert.ok(notes.length > 0);
  result.stages[2].labels[1].label = HOSTILE;
  assert.ok(!renderHtml(result).includes("<img"), "an <img> tag got through");
});
