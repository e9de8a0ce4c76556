import assert from "node:assert/strict";
import { computeRunVerdict } from "../../../runner/gates/run_verdict.ts";
import { formatMetric } from "../../../runner/result/read/words/format_metric.ts";
import { renderHtml } from "../../../reporters/html/html.ts";
import type { ChartData } from "../../../reporters/browser/mod.ts";
import { buildChartData } from "../../../reporters/html/html_data.ts";
import { escapeHtml } from "../../../reporters/page/html_escape.ts";
import { formatDurationMs } from "../../../runner/plan/units.ts";
import { SECRET_TOKEN, writtenResult } from "../../_helpers/result_fixtures.ts";
import { judgedGrpcResult } from "../../_helpers/grpc_result_fixtures.ts";
import { HOSTILE, hostileResult, reportResult } from "../../_helpers/report_fixtures.ts";
import { HOSTILE_MARKDOWN, HOSTILE_TRAFFIC, withTraffic } from "../_traffic_results.ts";
import { assertSelfContained, pageScripts as scripts } from "../_page_checks.ts";
import { judgedRun, rejectedRun, undecidedRegressionRun } from "../_judged_results.ts";
import { toEncodedHistogram } from "../../../runner/hdr/encoded_histogram.ts";
import { pointsUs } from "../../_helpers/gate_fixtures.ts";
import type { Verdict } from "../../../runner/model/run_result.ts";

function embeddedData(html: string): ChartData {
  const json = scripts(html).find((s) => s.attributes.includes('id="tailgate-data"'));
  assert.ok(json, "no data element");
  return JSON.parse(json.text);
}

function section(html: string, id: string): string {
  const start = html.indexOf(`<section class="card" id="${id}">`);
  assert.ok(start >= 0, `no section ${id}`);
  return html.slice(start, html.indexOf("</section>", start));
}

Deno.test("renderHtml() escapes hostile plan text: no raw tag, and each script element closes where it should", () => {
  const html = renderHtml(hostileResult());
  assert.ok(!html.includes("<img"), "an <img> tag got through");
  assert.ok(html.includes("&lt;/script&gt;&lt;img src=x onerror=window.pwned=1&gt;"));
  assert.ok(html.includes("&lt;!--&amp;amp;&#39;"), "&, ' and <!-- are escaped");
  assert.equal(html.match(/<script/g)?.length, 3, "the data, chart.js and the drawing script");
  assert.equal(html.match(/<\/script>/g)?.length, 3);
  assert.equal(html.match(/<!--/g), null);
  const data = scripts(html).find((s) => s.attributes.includes("application/json"))!.text;
  assert.ok(!/[<>&\u2028\u2029]/.test(data), "the JSON holds a character it must escape");
  assert.ok(data.includes("\\u2028"), "the stage name's line separator is escaped");
});

Deno.test("renderHtml() embeds the chart data as JSON that parses back to exactly the built data", () => {
  const result = hostileResult();
  const data = embeddedData(renderHtml(result));
  assert.deepEqual(data, buildChartData(result));
  assert.ok(
    data.percentile.views.some((v) => v.title.includes(HOSTILE)),
    "the stage name survives",
  );
});

Deno.test("renderHtml() loads nothing from the network: no remote src or href, a CSP allowing only its scripts", () => {
  assertSelfContained(renderHtml(reportResult()));
});

Deno.test("renderHtml() overlays the baseline only when the result carries one", () => {
  const roles = (data: ChartData) => data.percentile.views.map((v) => v.series.map((s) => s.role));
  const withBaseline = renderHtml(reportResult());
  for (const r of roles(embeddedData(withBaseline))) {
    assert.deepEqual(r, ["response", "service", "baselineResponse", "baselineService"]);
  }
  assert.match(section(withBaseline, "percentiles"), /the baseline, the newest of 3 stored runs/);
  const without = renderHtml(reportResult({ baseline: false }));
  for (const r of roles(embeddedData(without))) assert.deepEqual(r, ["response", "service"]);
  assert.ok(!section(without, "percentiles").includes("baseline"));
});

Deno.test("renderHtml() labels the percentile axis 0%, 50%, 90% … 99.99% and max", () => {
  const ticks = embeddedData(renderHtml(reportResult())).percentile.axis.ticks;
  assert.deepEqual(ticks.map((t) => t.label), [
    "0%",
    "50%",
    "90%",
    "99%",
    "99.9%",
    "99.99%",
    "max",
  ]);
  assert.deepEqual(ticks.map((t) => t.x), [1, 2, 10, 100, 1_000, 10_000, 100_000]);
});

Deno.test("renderHtml() states a failed SLO in the banner and the gate table with value, bound and margin", () => {
  const result = reportResult();
  const html = renderHtml(result);
  assert.match(html, /<section class="banner banner-fail"[^>]*>[\s\S]*FAIL: 2 of 4 gates failed/);
  assert.match(html, /<title>FAIL: checkout · tailgate<\/title>/);
  const row = section(html, "gates").split("<tr>").find((r) => r.includes("max &lt; 1ms"));
  assert.ok(row, "no row for max < 1ms");
  assert.match(row, /badge-fail/);
  // Some requests failed: no finite max exists, and the report says why.
  assert.match(row, />failed requests</);
  assert.match(row, />1ms</);
  assert.match(row, /\d+ requests failed, and a failed request is beyond every latency bound/);
  const p50 = result.verdicts.find((v) => v.name === "p50 < 5ms")!;
  assert.ok(p50.ci95, "the p50 verdict carries a confidence interval");
  const ci = `${formatDurationMs(p50.ci95[0] / 1000)} – ${formatDurationMs(p50.ci95[1] / 1000)}`;
  assert.ok(section(html, "gates").includes(ci), `no ${ci}`);
  // An error rate's interval is a share, shown in its own unit.
  const errors = result.verdicts.find((v) => v.name === "error_rate < 50%")!;
  assert.ok(errors.ci95, "the error-rate verdict carries its binomial interval");
  const shares = errors.ci95.map((x) => formatMetric(x, "fraction")).join(" – ");
  assert.ok(section(html, "gates").includes(shares), `no ${shares}`);
});

Deno.test("renderHtml() flags a marginal verdict and banners an unjudged run as such", () => {
  const result = reportResult();
  result.verdicts = result.verdicts.map((v) => ({ ...v, status: "pass" as const }));
  result.verdicts[1] = { ...result.verdicts[1], marginal: true };
  result.verdict = computeRunVerdict(result);
  const html = renderHtml(result);
  assert.match(html, /PASS: all 4 gates passed/);
  const rows = section(html, "gates").split("<tr>").filter((r) => r.includes("marginal: a rerun"));
  assert.equal(rows.length, 1);
  assert.ok(rows[0].includes("p90 &lt; 1ms"));
  result.verdicts = [];
  result.verdict = computeRunVerdict(result);
  assert.match(renderHtml(result), /NO GATES: this result was not judged/);
});

Deno.test("renderHtml() never shows a secret header's value, only its template", () => {
  const html = renderHtml(reportResult());
  assert.ok(!html.includes(SECRET_TOKEN), "the secret leaked into the report");
  assert.ok(html.includes("Authorization: Bearer ${env.TOKEN}"));
  assert.ok(html.includes("secret, not stored"));
});

Deno.test("renderHtml() shows warnings and a tool-limited run's reasons right after the gates", () => {
  const result = reportResult();
  result.warnings = ["the baseline was recorded on a different machine"];
  result.health.toolLimited = true;
  result.health.reasons = ["send lag p99 4.2ms exceeds 1ms"];
  const html = renderHtml(result);
  const warnings = html.indexOf('<section class="warnings"');
  // The verdict and what failed lead; the warnings qualify them before anything else.
  assert.ok(html.indexOf('id="verdict"') < html.indexOf('id="gates"'));
  assert.ok(warnings > html.indexOf('id="gates"'));
  assert.ok(warnings < html.indexOf('<nav class="toc"'));
  assert.ok(warnings < html.indexOf('id="percentiles"'));
  const box = html.slice(warnings, html.indexOf("</section>", warnings));
  assert.ok(box.includes("the baseline was recorded on a different machine"));
  assert.ok(box.includes("send lag p99 4.2ms exceeds 1ms"));
  assert.match(box, /Tool-limited: tailgate fell behind its schedule: /);
  assert.doesNotMatch(box, /no gate can pass/, "the sentence agrees with the gates' statuses");
  assert.match(html, /banner-fail/, "the gates, failed beyond doubt, decide the banner");
  assert.match(section(html, "health"), /Tool-limited\.[\s\S]*send lag p99 4\.2ms exceeds 1ms/);
  assert.ok(!renderHtml(reportResult()).includes('<section class="warnings"'));
});

Deno.test("renderHtml() tables carry the numbers without JavaScript", () => {
  const result = reportResult();
  const html = renderHtml(result);
  const stages = section(html, "stages");
  for (const s of result.stages) {
    assert.ok(stages.includes(`>${s.name}</strong>`));
    const p99 = formatDurationMs(s.response.percentilesUs["99"] / 1000);
    assert.ok(stages.includes(`>${p99}<`), `no p99 ${p99} for ${s.name}`);
  }
  const plan = section(html, "plan");
  assert.ok(plan.includes("<code>POST http://127.0.0.1:8080/order</code>"));
  assert.ok(plan.includes("20/s → 80/s"), "the ramp's rates");
  assert.ok(section(html, "environment").includes(result.environment.cpuModel));
  assert.ok(section(html, "health").includes("send lag"));
  assert.match(html, /<noscript>/);
});

Deno.test("renderHtml() draws the latency-against-rate chart only for plans with a ramp stage", () => {
  const withRamp = renderHtml(reportResult());
  assert.ok(withRamp.includes('<canvas id="chart-ramp"'));
  assert.deepEqual(embeddedData(withRamp).ramp?.stageNames, ["climb"]);
  const noRamp = renderHtml(writtenResult());
  assert.ok(!noRamp.includes('id="chart-ramp"'));
  assert.equal(embeddedData(noRamp).ramp, undefined);
});

Deno.test("renderHtml() lists the time-domain findings under the time charts", () => {
  const result = reportResult();
  assert.doesNotMatch(renderHtml(result), /<ul class="findings">/);
  const stage = result.stages.find((s) => !s.warmup)!;
  stage.timeDomain = {
    trendP99UsPerMin: { slope: 1_200, low: 900, high: 1_500, significant: true },
    stalls: [{ startMs: 4_000, maxUs: 80_000, why: "slow" }],
    stallThresholdUs: 20_000,
    bimodal: { flagged: false },
  };
  const html = renderHtml(result);
  const list = /<ul class="findings">(.*?)<\/ul>/.exec(html)?.[1] ?? "";
  assert.match(list, new RegExp(`<li>${stage.name}: p99 rises 1\\.2ms/min`));
  assert.match(list, /1 stall/);
});

Deno.test("renderHtml() shows a templated plan's traffic after the plan: each source's file, rows, order, draws, rows used and wrapping, each var, the late renders", () => {
  const html = renderHtml(withTraffic(reportResult()));
  const traffic = section(html, "traffic");
  assert.ok(html.indexOf('id="plan"') < html.indexOf('id="traffic"'), "after the plan");
  assert.ok(html.indexOf('id="traffic"') < html.indexOf('id="environment"'));
  assert.ok(html.includes('<a href="#traffic">Traffic</a>'), "the contents link to it");
  const row = (name: string) => traffic.split("<tr>").find((r) => r.startsWith(`<td>${name}<`));
  assert.match(
    row("users")!,
    /<code>data\/users\.csv<\/code>.*>100,000<.*>sequence<.*>240,000<.*>all 100,000<.*>2\.4×</,
  );
  assert.match(row("regions")!, />12<.*>random<.*>240,000<.*>-<.*>-</);
  assert.match(row("coupons")!, />1,000<.*>shuffle<.*>500<.*>500<.*>no</);
  assert.match(traffic, /<td>id<\/td><td><code>uuid<\/code><\/td>/);
  assert.match(traffic, /<td>qty<\/td><td><code>int \[1, 20\]<\/code><\/td>/);
  assert.match(traffic, /Rendered late:<\/strong> 1,200 requests were rendered when due/);
});

Deno.test("renderHtml() leaves the late renders out of the traffic when none were late", () => {
  const result = withTraffic(reportResult());
  result.traffic!.lateRenders = 0;
  assert.ok(!section(renderHtml(result), "traffic").includes("Rendered late"));
});

Deno.test("renderHtml() escapes a hostile data file, source and var: no tag gets through", () => {
  const html = renderHtml(withTraffic(reportResult(), HOSTILE_TRAFFIC));
  const traffic = section(html, "traffic");
  assert.ok(!/<(?:script|img)/i.test(traffic), "a tag got through");
  assert.ok(traffic.includes(`<code>data/${escapeHtml(HOSTILE_MARKDOWN)}.csv</code>`));
  assert.ok(traffic.includes(`<td>${escapeHtml(HOSTILE_MARKDOWN)}</td>`));
  assert.equal(html.match(/<script/g)?.length, 3, "the data, chart.js and the drawing script");
  assert.equal(html.match(/<\/script>/g)?.length, 3);
  assert.equal(html.match(/<!--/g), null);
});

Deno.test("renderHtml() of a result without traffic has no traffic section or link, and adding one changes nothing else", () => {
  const without = renderHtml(reportResult());
  assert.ok(!without.includes('id="traffic"') && !without.includes('href="#traffic"'));
  const withIt = renderHtml(withTraffic(reportResult()));
  const card = withIt.slice(
    withIt.indexOf('<section class="card" id="traffic">'),
    withIt.indexOf("</section>", withIt.indexOf('id="traffic"')) + "</section>\n".length,
  );
  assert.equal(withIt.replace(card, "").replace('<a href="#traffic">Traffic</a>', ""), without);
});

Deno.test("renderHtml() lists the gates failing first: fail, invalid, inconclusive, pass", () => {
  const result = reportResult();
  const gate = (name: string, status: Verdict["status"]): Verdict => ({
    kind: "slo",
    name,
    status,
    stageIndexes: [],
    message: `${status}: ${name}`,
  });
  result.verdicts = [
    gate("first pass", "pass"),
    gate("first inconclusive", "inconclusive"),
    gate("first fail", "fail"),
    gate("only invalid", "invalid"),
    gate("second pass", "pass"),
    gate("second fail", "fail"),
  ];
  const rows = section(renderHtml(result), "gates").split("<tr>").slice(2);
  const shown = rows.map((r) => /<div class="message">(\w+): ([^<]*)</.exec(r)?.slice(1, 3));
  assert.deepEqual(shown, [
    ["fail", "first fail"],
    ["fail", "second fail"],
    ["invalid", "only invalid"],
    ["inconclusive", "first inconclusive"],
    ["pass", "first pass"],
    ["pass", "second pass"],
  ]);
  assert.equal(result.verdicts[0].name, "first pass", "the result's own order is left alone");
});

Deno.test("renderHtml() marks the implicit error gate of a plan without SLOs as implicit", async () => {
  const html = renderHtml(await rejectedRun());
  assert.match(html, /<section class="banner banner-fail"[^>]*>[\s\S]*FAIL: 1 of 1 gate failed/);
  const row = section(html, "gates").split("<tr>").find((r) => r.includes("(implicit)"));
  assert.ok(row, "no row for the implicit gate");
  assert.match(row, /badge-fail/);
  assert.match(row, /<span class="kind">implicit slo<\/span> error_rate &lt;= 1% \(implicit\)/);
  assert.match(row, /`allow_errors: true` to let errors pass/);
});

Deno.test("renderHtml() says under the throughput chart why the sent rate dips: queued, none skipped", () => {
  const result = reportResult();
  for (const i of result.intervals) i.sentPerSec = i.intendedPerSec;
  assert.ok(!section(renderHtml(result), "timeline").includes('id="sent-rate-note"'));
  const dip = result.intervals.find((i) => i.intendedPerSec >= 30)!;
  dip.sentPerSec = dip.intendedPerSec / 2;
  result.health.queueWait = toEncodedHistogram(pointsUs([[40_000, 12]]));
  const timeline = section(renderHtml(result), "timeline");
  const note = /<p class="explain" id="sent-rate-note">([^<]*)<\/p>/.exec(timeline)?.[1];
  assert.ok(note, "no note under the chart");
  assert.ok(timeline.indexOf("chart-timeline-throughput") < timeline.indexOf("sent-rate-note"));
  assert.match(note, /dips below the intended rate in 1 second/);
  assert.match(note, /12 requests waited in tailgate&#39;s queue/);
  assert.match(note, /None was skipped/);
});

Deno.test("renderHtml() says in the banner and the warnings box when only regression checks are undecided", async () => {
  const html = renderHtml(await undecidedRegressionRun());
  assert.match(
    html,
    /<h1>INCONCLUSIVE: \d+ of \d+ gates could not be decided by this run \(regression checks only: a warning; each says why/,
  );
  const box = html.slice(html.indexOf('<section class="warnings"'));
  assert.match(box, /<li>Only regression checks are undecided: a warning, not a failure/);
  const slo = renderHtml(await judgedRun({ slos: ['p99.99 < 5ms for "GET /a"'] }));
  assert.doesNotMatch(slo, /regression checks only|Only regression checks/);
});

Deno.test("renderHtml() shows the protocol in the banner and the health panel, and an HTTP/2 run's stream wait", () => {
  const result = writtenResult();
  const banner = (html: string) =>
    html.slice(html.indexOf('id="verdict"'), html.indexOf("</section>"));
  const health = (html: string) =>
    html.slice(html.indexOf('id="health"'), html.indexOf('id="plan"'));
  let html = renderHtml(result);
  assert.match(banner(html), / · HTTP\/1\.1<\/p>/);
  assert.match(
    health(html),
    /<strong>queue wait<\/strong>.*requests that waited for a busy connection/,
  );
  assert.doesNotMatch(health(html), /stream wait/);
  result.run.protocol = "h2";
  html = renderHtml(result);
  const words =
    "HTTP/2 over TLS (h2), streams per connection as the server&#39;s SETTINGS allow, " +
    "at most 100";
  assert.ok(banner(html).includes(` · ${words}</p>`), banner(html));
  assert.ok(health(html).includes(words));
  assert.match(
    health(html),
    /<strong>stream wait<\/strong>.*requests that waited for a free stream/,
  );
  assert.doesNotMatch(health(html), /queue wait/);
});

Deno.test("renderHtml() names each unexpected status by its code in the banner and under the stages", () => {
  const result = writtenResult();
  const e = result.totals.counts.errors;
  const html = renderHtml(result);
  const banner = html.slice(html.indexOf('id="verdict"'), html.indexOf("</section>"));
  assert.ok(
    banner.includes(`10 errors (500 × ${e.unexpected_status}, refused × ${e.refused})`),
    banner,
  );
  const stages = section(html, "stages");
  assert.ok(stages.includes(`Errors: 500 × ${e.unexpected_status}, refused × ${e.refused}.`));
  assert.doesNotMatch(html, /unexpected[ _]status/);
});

Deno.test("renderHtml() shows the first body of each unexpected status under the gates, escaped", () => {
  const hostile = '</pre><script>alert("pwned")</script><img src=x onerror=alert(1)>';
  const result = writtenResult({
    bodySamples: [
      {
        labelIndex: 1,
        status: 500,
        atMs: 1_250,
        bytes: new TextEncoder().encode(hostile),
        bodyBytes: 4_096,
      },
    ],
  });
  const html = renderHtml(result);
  const card = section(html, "unexpected");
  const n = result.stages.reduce((sum, s) => sum + (s.labels[1].counts.statusCodes["500"] ?? 0), 0);
  assert.ok(n > 0);
  assert.ok(card.includes(`500 × ${n}`), card);
  assert.ok(card.includes("GET /b"), card);
  assert.ok(card.includes(escapeHtml(hostile)), "the body, as text");
  assert.ok(!card.includes("<script>") && !card.includes("<img"), card);
  assert.match(card, /first answered 1\.25s into the run; its first 512 of 4,096 bytes/);
  // On the first screens: before the charts.
  assert.ok(html.indexOf('id="unexpected"') < html.indexOf('id="percentiles"'));
  assert.match(html, /<a href="#unexpected">Unexpected statuses<\/a>/);
  const none = renderHtml(writtenResult());
  assert.ok(!none.includes('id="unexpected"'));
  assert.ok(!none.includes('href="#unexpected"'));
});

Deno.test("the stage table has a ttfb row for a result with times to first byte, and names the rate limited", () => {
  const html = renderHtml(writtenResult({}, { firstByte: true, rateLimited: true }));
  assert.equal((html.match(/<span class="muted">ttfb<\/span>/g) ?? []).length, 2 + 2 * 2);
  assert.match(
    html,
    /Rate limited: \d+ requests? \(429, or 503 with Retry-After\), Retry-After 30s × \d+/,
  );
  const old = renderHtml(writtenResult());
  assert.doesNotMatch(old, /muted">ttfb|Rate limited/);
});

Deno.test("renderHtml() names a gRPC run's statuses, its protocol and a stream's messages", async () => {
  const html = renderHtml(await judgedGrpcResult());
  const banner = html.slice(html.indexOf('id="verdict"'), html.indexOf("</section>"));
  const words = "gRPC over h2c, HTTP/2 cleartext (h2c), up to 8 streams per connection";
  assert.ok(banner.includes(` · ${words}</p>`), banner);
  assert.ok(
    html.includes(
      "<p>Statuses: OK × 38, UNAVAILABLE × 12. Errors: UNAVAILABLE × 12. Streams: " +
        "RouteGuide/ListFeatures 64 messages per stream (1,280 in 20 streams). ",
    ),
  );
  assert.ok(
    html.includes('↳ RouteGuide/ListFeatures<div class="muted">64 messages per stream</div>'),
  );
  assert.ok(!html.includes('↳ Greeter/SayHello<div class="muted">'), "a unary label has none");
  // Its time to first byte is to the first message: the stage rows and the timeline say so.
  assert.ok(html.includes('<span class="muted">first message</span>'));
  assert.ok(!html.includes('<span class="muted">ttfb</span>'));
  assert.ok(html.includes('"label":"p99 time to first message"'));
  const ttfb = renderHtml(writtenResult({}, { firstByte: true }));
  assert.ok(ttfb.includes('<span class="muted">ttfb</span>'));
  assert.ok(ttfb.includes('"label":"p99 time to first byte"'));
  const http = renderHtml(writtenResult());
  assert.match(http, /<p>Status codes: /);
  assert.doesNotMatch(http, /gRPC|messages per stream|Statuses:/);
});
