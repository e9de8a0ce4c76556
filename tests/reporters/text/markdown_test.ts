import assert from "node:assert/strict";
import { formatMetric } from "../../../runner/result/read/words/format_metric.ts";
import { judge } from "../../../runner/api/judge.ts";
import { parseDurationMs } from "../../../runner/plan/units.ts";
import type { RunResult, VerdictStatus } from "../../../runner/model/run_result.ts";
import { KEY_LATENCY_COLUMNS, latencyUs } from "../../../reporters/figures/latency_columns.ts";
import { MARKDOWN_MAX_BYTES, renderMarkdown } from "../../../reporters/text/markdown.ts";
import { printable } from "../../../runner/plan/printable.ts";
import { gateResult, pointsUs, scaledUs, type StageSpec } from "../../_helpers/gate_fixtures.ts";
import { toEncodedHistogram } from "../../../runner/hdr/encoded_histogram.ts";
import { judgedRun, rejectedRun, undecidedRegressionRun } from "../_judged_results.ts";
import { HOSTILE_MARKDOWN, HOSTILE_TRAFFIC, TRAFFIC, withTraffic } from "../_traffic_results.ts";
import { writtenResult } from "../../_helpers/result_fixtures.ts";
import { judgedGrpcResult } from "../../_helpers/grpc_result_fixtures.ts";

/** Splits a GFM table row into cells as GitHub does: a backslash escapes the next character. */
function cellsOf(row: string): string[] {
  assert.ok(row.startsWith("|") && row.endsWith("|"), `not a table row: ${row}`);
  const cells: string[] = [];
  let cell = "";
  for (let i = 1; i < row.length; i++) {
    if (row[i] === "\\") cell += row[i] + (row[++i] ?? "");
    else if (row[i] === "|") {
      cells.push(cell.trim());
      cell = "";
    } else cell += row[i];
  }
  return cells;
}

/**
 * What a cell shows once rendered: backslash escapes and entities undone;
 * zero-width spaces unseen.
 */
function shown(cell: string): string {
  return cell.replaceAll("\u200b", "").replace(/\\(.)/g, "$1").replace(/&lt;/g, "<").replace(
    /&gt;/g,
    ">",
  )
    .replace(/&amp;/g, "&");
}

/** Every table in the text: its header, separator and rows, checked for GFM shape. */
function tables(text: string): string[][][] {
  const lines = text.split("\n");
  const found: string[][][] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!lines[i].startsWith("|")) continue;
    assert.equal(lines[i - 1], "", "a table starts after a blank line");
    const block: string[][] = [];
    for (; lines[i].startsWith("|"); i++) block.push(cellsOf(lines[i]));
    assert.equal(lines[i], "", "a table ends with a blank line");
    assert.ok(block.length >= 2, "header and separator");
    assert.ok(block[1].every((c) => /^:?-{3,}:?$/.test(c)), `separator: ${block[1]}`);
    for (const row of block) assert.equal(row.length, block[0].length, `row ${row}`);
    found.push(block);
  }
  return found;
}

function table(text: string, firstHeader: string): string[][] {
  const t = tables(text).find((b) => b[0][0] === firstHeader);
  assert.ok(t, `no table headed "${firstHeader}"`);
  return t;
}

Deno.test("renderMarkdown() heads the summary with the run's verdict, mark and word", async () => {
  const cases: Array<[VerdictStatus, RunResult]> = [
    ["pass", await judgedRun({ slos: ["p99 < 5ms"] })],
    ["fail", await judgedRun({ slos: ["p99 < 5ms", "p99 < 1ms"] })],
    ["inconclusive", await judgedRun({ slos: ["p99 < 5ms", 'p99.99 < 5ms for "GET /a"'] })],
    ["invalid", await judgedRun({ slos: ["p99 < 5ms"], complete: false })],
  ];
  const marks: Record<VerdictStatus, string> = {
    pass: "✅",
    fail: "❌",
    inconclusive: "⚠️",
    invalid: "⚠️",
  };
  for (const [status, result] of cases) {
    const first = renderMarkdown(result).split("\n")[0];
    assert.equal(first, `## ${marks[status]} tailgate: shop — ${status}`);
  }
});

Deno.test("renderMarkdown() calls a run that stopped early invalid and says why", async () => {
  const text = renderMarkdown(await judgedRun({ slos: ["p99 < 5ms"], complete: false }));
  assert.match(text.split("\n")[0], /— invalid$/);
  assert.match(text, /\*\*the run stopped early \(interrupted\)\*\*/);
});

Deno.test("renderMarkdown() lists every verdict in a gate table, failing first, with its figures", async () => {
  const result = await judgedRun(
    { slos: ["p99 < 5ms", "p99 < 1ms", 'p99.99 < 5ms for "GET /a"', "error_rate < 1%"] },
    [1, 1.01, 0.99],
  );
  const gates = table(renderMarkdown(result), "status");
  assert.deepEqual(gates[0], ["status", "gate", "measured", "bound", "margin", "detail"]);
  const rows = gates.slice(2);
  assert.equal(rows.length, result.verdicts.length);
  const order = ["fail", "invalid", "inconclusive", "pass"];
  const ranks = rows.map((r) => order.findIndex((s) => r[0].endsWith(s)));
  assert.ok(ranks.every((r, i) => r >= 0 && (i === 0 || r >= ranks[i - 1])), `${ranks}`);
  for (const v of result.verdicts) {
    const row = rows.find((r) => shown(r[1]) === v.name);
    assert.ok(row, `verdict "${v.name}" is missing`);
    assert.ok(row[0].endsWith(v.status));
    if (v.measured !== undefined) assert.equal(row[2], formatMetric(v.measured, v.unit!));
    if (v.bound !== undefined) assert.equal(row[3], formatMetric(v.bound, v.unit!));
    if (v.status !== "pass") assert.equal(shown(row[5]), v.message);
  }
  const failed = rows.find((r) => shown(r[1]) === "p99 < 1ms")!;
  assert.match(failed[4], /^-\d/, "a failed SLO has a negative margin");
});

Deno.test("renderMarkdown() shows p50 … max of each judged stage with deltas against the baseline", async () => {
  const result = await judgedRun({ scale: 1.3, slos: ["p99 < 5ms"] }, [1, 1.01, 0.99]);
  assert.ok(result.baseline, "judge kept the baseline");
  const text = renderMarkdown(result);
  assert.match(
    text,
    /newest of 3 stored runs, started 2025-02-03T00:00:00\.000Z at commit abc2def/,
  );
  const latency = table(text, "stage");
  assert.deepEqual(latency[0].slice(4), ["p50", "p90", "p99", "p99.9", "max", "shape (KS)"]);
  const rows = latency.slice(2);
  assert.deepEqual(rows.map((r) => [r[0], r[1]]), [
    ["main", "response time"],
    ["main", "service time"],
  ], "judged stages only: not the warmup");
  const stage = result.stages[1];
  const past = result.baseline.stages.find((s) => s.index === stage.index)!;
  assert.equal(rows[0][2], String(stage.counts.completed));
  assert.equal(rows[0][3], "10");
  for (const [row, kind] of [[rows[0], "response"], [rows[1], "service"]] as const) {
    KEY_LATENCY_COLUMNS.forEach((column, i) => {
      const m = /^(\S+) \(([+-]\S+), ([+-][\d.]+)%\)$/.exec(row[4 + i]);
      assert.ok(m, `cell ${row[4 + i]}`);
      const nowUs = latencyUs(stage[kind], column)!;
      const pastUs = latencyUs(past[kind], column)!;
      assert.equal(m[1], formatMetric(nowUs, "us"));
      const deltaMs = parseDurationMs(m[2].replace(/^\+/, ""));
      assert.ok(deltaMs.ok);
      // Shown to four significant digits.
      assert.ok(Math.abs(deltaMs.value * 1000 - (nowUs - pastUs)) <= 0.001 * (nowUs - pastUs) + 1);
      // The run is 1.3 × the newest baseline run (0.99): +31.3%, within histogram precision.
      assert.ok(Math.abs(Number(m[3]) - (1.3 / 0.99 - 1) * 100) < 0.5, `${m[3]}%`);
    });
  }
  // The shape beside the deltas: the KS distance the regression gate measured, response rows only.
  const ks = result.verdicts.find((v) => v.kind === "regression" && v.label === undefined)!;
  assert.ok(ks.ksDistance! > 0.1, `a 30% slower run moves the distribution: ${ks.ksDistance}`);
  assert.equal(rows[0][9], ks.ksDistance!.toFixed(3));
  assert.equal(rows[1][9], "-");
  assert.match(text, /Shape \(KS\): the largest gap between this run's and the baseline's/);
});

Deno.test("renderMarkdown() shows plain percentiles when there is no baseline", async () => {
  const result = await judgedRun({ slos: ["p99 < 5ms"] });
  const text = renderMarkdown(result);
  assert.match(text, /^### Latency$/m);
  const row = table(text, "stage")[2];
  assert.equal(row[4], formatMetric(result.stages[1].response.percentilesUs["50"], "us"));
  assert.equal(row[8], formatMetric(result.stages[1].response.maxUs, "us"));
});

Deno.test("renderMarkdown() escapes hostile names so they cannot break a table or inject HTML", async () => {
  const label = "GET /x|<img src=x onerror=alert(1)>`code`\\|";
  const stageName = "main\n| injected | row |\n<script>alert(1)</script>";
  const result = await judgedRun(
    { slos: [`p99 < 5ms for '${label}'`], labels: [label, "GET /b"], stageName },
    [1, 1.01, 0.99],
  );
  result.plan.name = "shop | <b>bold</b>\n## heading `x` & [link](http://example.com)";
  result.warnings = ["a warning with | and <i>html</i>\nand a line break"];
  const text = renderMarkdown(result, { htmlUrl: "https://example.com/run 1/report.html" });
  assert.doesNotMatch(text, /<[a-z/!]/i, "no HTML tag survives");
  assert.doesNotMatch(text, /(^|[^\\])`/, "every backtick is escaped");
  assert.doesNotMatch(text, /^## heading/m, "a newline cannot start a heading");
  assert.doesNotMatch(text, /^\| injected/m, "a newline cannot start a row");
  assert.doesNotMatch(text, /\[link\]\(/, "no link from the plan name");
  const gates = table(text, "status");
  const names = gates.slice(2).map((r) => shown(r[1]));
  for (const v of result.verdicts) {
    assert.ok(names.includes(printable(v.name)), `verdict "${v.name}" is kept`);
  }
  assert.ok(names.some((n) => n.includes(label)));
  assert.equal(shown(table(text, "stage")[2][0]), printable(stageName));
  assert.match(text, /\(https:\/\/example\.com\/run%201\/report\.html\)/);
});

Deno.test("renderMarkdown() reports the tool's health: limited or not, send lag p99, achieved of intended rate", async () => {
  const sound = await judgedRun({ slos: ["p99 < 5ms"] });
  const h = sound.health;
  const line = renderMarkdown(sound).split("\n").find((l) => l.startsWith("**Tool health:**"));
  assert.ok(line);
  assert.match(line, /not tool-limited/);
  assert.ok(line.includes(`send lag p99 ${formatMetric(h.sendLag.percentilesUs["99"], "us")}`));
  assert.match(
    line,
    new RegExp(
      `achieved \\S+ of \\S+ intended \\(${
        Math.round(100 * h.achievedPerSec / h.intendedPerSec)
      }%\\)`,
    ),
  );
  const limited = await judgedRun({ slos: ["p99 < 5ms"], toolLimited: true });
  const text = renderMarkdown(limited);
  assert.match(text, /\*\*tool-limited\*\*/);
  for (const reason of limited.health.reasons) assert.ok(text.includes(`- ${reason}`));
});

Deno.test("renderMarkdown() shows every warning and links the HTML report", async () => {
  const result = await judgedRun({ slos: ["p99 < 5ms"] });
  result.warnings = ["the baseline was recorded on a different machine", "second warning"];
  const text = renderMarkdown(result, { htmlUrl: "https://ci.example.com/artifacts/report.html" });
  for (const w of result.warnings) assert.match(text, new RegExp(`^- ⚠️ ${w}$`, "m"));
  assert.match(text, /\[[^\]]+\]\(https:\/\/ci\.example\.com\/artifacts\/report\.html\)/);
  assert.match(
    renderMarkdown(result),
    /`report\.html` in this run's artifact \(`--report-url` makes this a link/,
  );
});

/** 300 stages at rates 1..300/s, one label each, and one SLO per stage, every third failing. */
function hugeResult(scale = 1): RunResult {
  const stages: StageSpec[] = Array.from({ length: 300 }, (_, i) => ({
    name: `stage ${i} ${"with a rather long descriptive name ".repeat(3)}`,
    ratePerSec: i + 1,
    durationMs: 1_000,
    labels: [{ label: `GET /resource/${i}?${"q=x&".repeat(10)}`, response: scaledUs(100, scale) }],
  }));
  const slos = stages.map((s, i) => `p50 < ${i % 3 === 0 ? "500us" : "5ms"} at ${s.ratePerSec}/s`);
  return gateResult(stages, { slos });
}

Deno.test("renderMarkdown() stays under 64 KB for a huge plan, failing gates first, and counts what it leaves out", async () => {
  const measured = hugeResult(1.2);
  const result = (await judge(measured)).result;
  result.baseline = {
    source: "baselines/shop.json",
    runs: 1,
    date: "2025-02-01T00:00:00.000Z",
    stages: hugeResult(1).stages,
  };
  result.warnings = Array.from({ length: 200 }, (_, i) => `warning ${i}: ${"x".repeat(300)}`);
  const failing = result.verdicts.filter((v) => v.status === "fail").length;
  assert.equal(failing, 100);
  const text = renderMarkdown(result);
  assert.ok(new TextEncoder().encode(text).length <= MARKDOWN_MAX_BYTES);
  assert.ok(MARKDOWN_MAX_BYTES < 64 * 1024);
  const rows = table(text, "status").slice(2);
  const hidden = Number(/^… (\d+) more gates \(see the HTML report\)$/m.exec(text)?.[1]);
  assert.equal(rows.length + hidden, result.verdicts.length);
  assert.ok(rows.slice(0, Math.min(rows.length, failing)).every((r) => r[0].endsWith("fail")));
  const stageRows = table(text, "stage").slice(2).length / 2;
  const hiddenStages = Number(/^… (\d+) more stages \(see the HTML report\)$/m.exec(text)?.[1]);
  assert.equal(stageRows + hiddenStages, 300);
  assert.match(text, /^… \d+ more warnings \(see the HTML report\)$/m);
});

Deno.test("renderMarkdown() stays under the limit even when every name and message is enormous", async () => {
  const result = await judgedRun({ slos: ["p99 < 5ms", "p99 < 1ms"] });
  result.plan.name = "<&>".repeat(100_000);
  const failed = result.verdicts.find((v) => v.status === "fail")!;
  result.verdicts = Array.from({ length: 120 }, (_, i) => ({
    ...failed,
    name: `${i} ${"|&".repeat(50_000)}`,
    message: "<".repeat(10_000),
  }));
  result.warnings = Array.from({ length: 50 }, () => "`".repeat(200_000));
  const text = renderMarkdown(result);
  assert.ok(new TextEncoder().encode(text).length <= MARKDOWN_MAX_BYTES);
  const rows = table(text, "status").slice(2);
  const hidden = Number(/^… (\d+) more gates \(see the HTML report\)$/m.exec(text)?.[1] ?? 0);
  assert.equal(rows.length + hidden, result.verdicts.length);
  assert.ok(rows.length > 0, "some gates are still shown");
  assert.match(text.split("\n")[0], /^## ❌ tailgate: (&lt;|&amp;|&gt;)+… — fail$/);
});

Deno.test("renderMarkdown() keeps a long reason whole while the summary is far below its limit", async () => {
  const result = await judgedRun({ slos: ["p99 < 1ms"] });
  const reason = "inconclusive: " + "the generator's own pauses explain this; ".repeat(20) + "END";
  result.verdicts = result.verdicts.map((v) => ({ ...v, status: "inconclusive", message: reason }));
  const text = renderMarkdown(result);
  assert.ok(new TextEncoder().encode(text).length < 10_000);
  assert.ok(text.includes("own pauses explain this; END"), "the reason was cut");
  assert.ok(!text.includes("…"), "nothing is cut in a small summary");
});

Deno.test("renderMarkdown() tables a templated plan's data sources, lists its vars and counts late renders", async () => {
  const text = renderMarkdown(withTraffic(await judgedRun({ slos: ["p99 < 5ms"] })));
  assert.match(text, /^### Traffic$/m);
  assert.deepEqual(table(text, "source"), [
    ["source", "file", "rows", "order", "draws", "rows used", "wrapped"],
    ["---", "---", "---:", "---", "---:", "---:", "---:"],
    ["users", "data/users.csv", "100,000", "sequence", "240,000", "all 100,000", "2.4×"],
    ["regions", "data/regions.jsonl", "12", "random", "240,000", "-", "-"],
    ["coupons", "data/coupons.csv", "1,000", "shuffle", "500", "500", "no"],
  ]);
  assert.match(text, /^\*\*Vars:\*\* id \(uuid\), qty \(int \\\[1, 20\\\]\)$/m);
  assert.match(text, /^⚠️ \*\*Rendered late:\*\* 1,200 requests were rendered when due/m);
  assert.ok(text.indexOf("### Traffic") < text.indexOf("Full report"), "before the report link");
});

Deno.test("renderMarkdown() escapes a hostile data file, source and var: the table keeps its cells, no HTML", async () => {
  const result = withTraffic(await judgedRun({ slos: ["p99 < 5ms"] }), HOSTILE_TRAFFIC);
  const text = renderMarkdown(result, { htmlUrl: "https://example.com/report.html" });
  assert.doesNotMatch(text, /<[a-z/!]/i, "no HTML tag survives");
  assert.doesNotMatch(text, /(^|[^\\])`/, "every backtick is escaped");
  assert.doesNotMatch(text, /\[a\]\(b\)/, "no link from the file name");
  const rows = table(text, "source");
  assert.equal(rows.length, 3);
  const hostile = printable(HOSTILE_MARKDOWN);
  assert.equal(shown(rows[2][0]), hostile);
  assert.equal(shown(rows[2][1]), `data/${hostile}.csv`);
  const vars = text.split("\n").find((l) => l.startsWith("**Vars:**"))!;
  assert.ok(shown(vars).endsWith(`(choice [${hostile}, |])`));
});

Deno.test("renderMarkdown() of a result without traffic has no traffic section", async () => {
  const result = await judgedRun({ slos: ["p99 < 5ms"] });
  const text = renderMarkdown(result);
  assert.doesNotMatch(text, /Traffic|Vars:|Rendered late/);
  const withIt = renderMarkdown(withTraffic(result));
  const start = withIt.indexOf("### Traffic");
  assert.equal(withIt.slice(0, start) + withIt.slice(withIt.indexOf("Full report")), text);
});

Deno.test("renderMarkdown() stays under the limit with thousands of data sources and vars, and counts those left out", async () => {
  const result = withTraffic(await judgedRun({ slos: ["p99 < 5ms"] }), {
    sources: Array.from({ length: 5_000 }, (_, i) => ({
      ...TRAFFIC.sources[0],
      name: `source ${i} ${"|".repeat(200)}`,
      file: `data/${"<&>".repeat(100)}${i}.csv`,
    })),
    vars: Array.from({ length: 5_000 }, (_, i) => ({ name: `v${i}`, spec: "`".repeat(300) })),
    lateRenders: 7,
  });
  const text = renderMarkdown(result);
  assert.ok(new TextEncoder().encode(text).length <= MARKDOWN_MAX_BYTES);
  const shownSources = table(text, "source").length - 2;
  const hidden = Number(/^… (\d+) more data sources \(see the HTML report\)$/m.exec(text)?.[1]);
  assert.equal(shownSources + hidden, 5_000);
  assert.match(text, /^… \d+ more vars \(see the HTML report\)$/m);
  assert.match(text, /7 requests were rendered when due/);
});

Deno.test("renderMarkdown() of a plan without SLOs whose requests all failed: ❌ fail, the implicit gate", async () => {
  const text = renderMarkdown(await rejectedRun());
  assert.match(text, /^## ❌ tailgate: shop — fail$/m);
  assert.match(text, /1 gate: 1 fail/);
  const row = text.split("\n").find((l) => l.includes("(implicit)"));
  assert.ok(row, text);
  assert.match(row, /^\| ❌ fail \| error\\_rate &lt;= 1% \(implicit\) \| 100% \| 1% \| /);
  assert.match(row, /\\`allow\\_errors: true\\` to let errors pass \|$/);
});

Deno.test("renderMarkdown() quotes a warning under the facts when only regression checks are undecided", async () => {
  const text = renderMarkdown(await undecidedRegressionRun());
  const lines = text.split("\n");
  assert.match(lines[0], /— inconclusive$/);
  const at = lines.findIndex((l) => l.startsWith("> ⚠️ **Warning:** only regression checks"));
  assert.ok(at > 0 && at < lines.indexOf("### Gates"), text);
  assert.match(lines[at], /a warning, not a failure \(exit 0\)/);
  const slo = await judgedRun({ slos: ['p99.99 < 5ms for "GET /a"'] });
  assert.doesNotMatch(renderMarkdown(slo), /only regression checks/);
});

Deno.test("renderMarkdown() names the protocol among the facts, and an HTTP/2 run's stream wait", async () => {
  const result = await judgedRun({ slos: ["p99 < 5ms"] });
  const facts = () => renderMarkdown(result).split("\n")[2];
  assert.match(facts(), / · HTTP\/1\.1( · |$)/);
  result.health.queueWait = toEncodedHistogram(pointsUs([[2_000, 30], [40_000, 10]]));
  const health = () =>
    renderMarkdown(result).split("\n").find((l) => l.startsWith("**Tool health:**"))!;
  assert.match(health(), / · 40 requests waited for a connection \(up to 40\.\d*ms/);
  result.run.protocol = "h2c";
  result.run.maxStreams = 8;
  assert.match(facts(), / · HTTP\/2 cleartext \(h2c\), up to 8 streams per connection( · |$)/);
  assert.match(health(), / · 40 requests waited for a free stream \(up to 40\.\d*ms/);
});

Deno.test("renderMarkdown() names each unexpected status by its code after the error count", () => {
  const text = renderMarkdown(writtenResult());
  assert.match(text, /, 10 errors \(500 × 5, refused × 5\) · /);
  assert.doesNotMatch(text, /unexpected\\?_status/);
  const clean = renderMarkdown(writtenResult({}, { everyRequestAnswered: true }));
  assert.match(clean, /, 0 errors · /);
});

Deno.test("renderMarkdown() has a Labels table: requests, errors by code, p50 and p99 of each label", () => {
  const text = renderMarkdown(writtenResult());
  assert.match(text, /^### Labels$/m);
  const rows = table(text, "label");
  assert.deepEqual(rows[0], ["label", "requests", "errors", "p50", "p99"]);
  assert.deepEqual(rows.slice(2).map((r) => r.map(shown)), [
    ["GET /a", "20", "refused × 2", "1.5ms", "1.5ms"],
    ["GET /b", "20", "500 × 4, refused × 2", "1.5ms", "1.5ms"],
  ]);
});

Deno.test("renderMarkdown() of a plan of one label has no Labels table", async () => {
  assert.doesNotMatch(renderMarkdown(await rejectedRun()), /### Labels/);
});

Deno.test("renderMarkdown() shows time to first byte beside response and service time, only where the result has it", () => {
  const text = renderMarkdown(writtenResult({}, { firstByte: true }));
  assert.match(
    text,
    /^\| main \| time to first byte \| {2}\| {2}\| 1ms \| 1ms \| 1ms \| 1ms \| 1ms \|$/m,
  );
  assert.match(
    text,
    /time to first byte from the intended send time to the response's first byte\.$/m,
  );
  assert.match(text, /^\| label \| requests \| errors \| p50 \| p99 \| ttfb p99 \|$/m);
  const old = renderMarkdown(writtenResult());
  assert.doesNotMatch(old, /first byte|ttfb/);
  assert.match(old, /^\| label \| requests \| errors \| p50 \| p99 \|$/m);
});

Deno.test("renderMarkdown() says how many requests were rate limited, their Retry-After and when", () => {
  const result = writtenResult({}, { rateLimited: true });
  const limited = result.totals.counts.errors.rate_limited!;
  assert.match(
    renderMarkdown(result),
    new RegExp(
      `^\\*\\*Rate limited:\\*\\* ${limited} requests? \\(429, or 503 with Retry-After\\), Retry-After 30s × ${limited}, due from `,
      "m",
    ),
  );
  assert.doesNotMatch(renderMarkdown(writtenResult()), /Rate limited/);
});

Deno.test("renderMarkdown() names a gRPC run's statuses, its protocol and a stream's messages", async () => {
  const text = renderMarkdown(await judgedGrpcResult());
  const facts = text.split("\n")[2];
  assert.ok(
    facts.includes("50 of 50 requests completed in 3.0s, 12 errors (UNAVAILABLE × 12)"),
    facts,
  );
  assert.ok(
    facts.endsWith(" · gRPC over h2c, HTTP/2 cleartext (h2c), up to 8 streams per connection"),
    facts,
  );
  assert.ok(text.includes("| Greeter/SayHello | 20 | UNAVAILABLE × 12 |"), text);
  assert.ok(text.includes("| main | time to first message |"), text);
  assert.ok(text.includes("p99 of the response time, p99 of the time to first message."), text);
  assert.ok(
    text.includes(
      "**Streams** (measured stages): RouteGuide/ListFeatures 64 messages per stream " +
        "(1,280 in 20 streams)",
    ),
    text,
  );
  assert.match(text, /12 of 40 judged requests failed \(UNAVAILABLE × 12\)/);
  const http = renderMarkdown(writtenResult());
  assert.doesNotMatch(http, /gRPC|Streams|first message/);
  assert.match(
    renderMarkdown(writtenResult({}, { firstByte: true })),
    /\| time to first byte \|[^]*p99 of the time to first byte\./,
  );
});
