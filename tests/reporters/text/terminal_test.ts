import assert from "node:assert/strict";
import { formatMetric } from "../../../runner/result/read/words/format_metric.ts";
import { createHistogram } from "../../../runner/hdr/mod.ts";
import { toEncodedHistogram } from "../../../runner/hdr/encoded_histogram.ts";
import type { RunResult } from "../../../runner/model/run_result.ts";
import { renderTerminal, shouldUseColor } from "../../../reporters/text/terminal.ts";
import { displayWidth } from "../../../reporters/text/text_table.ts";
import { writtenResult } from "../../_helpers/result_fixtures.ts";
import { judgedGrpcResult } from "../../_helpers/grpc_result_fixtures.ts";
import { pointsUs } from "../../_helpers/gate_fixtures.ts";
import { judgedRun, rejectedRun, undecidedRegressionRun } from "../_judged_results.ts";
import { HOSTILE_TRAFFIC, withTraffic } from "../_traffic_results.ts";
import { reportResult } from "../../_helpers/report_fixtures.ts";
import { traceIdOf, withoutSlowest, withSlowest } from "../_slowest_results.ts";

const ESC = "\x1b";
const SGR = new RegExp(`${ESC}\\[\\d+m`, "g");
const stripAnsi = (text: string) => text.replace(SGR, "");
const plain = (result: RunResult) => renderTerminal(result, { color: false });

/** The stage table: header line and the rows up to the blank line after it. */
function stageTable(text: string): string[] {
  const lines = text.split("\n");
  const start = lines.findIndex((l) => /^stage\s+latency\s/.test(l));
  assert.ok(start >= 0, "no stage table");
  const end = lines.indexOf("", start);
  return lines.slice(start, end);
}

Deno.test("renderTerminal() shows a response row and a service row per stage at p50 … p99.99 and max", () => {
  const table = stageTable(plain(writtenResult()));
  assert.match(
    table[0],
    /^stage\s+latency\s+requests\s+errors\s+p50\s+p90\s+p99\s+p99\.9\s+p99\.99\s+max$/,
  );
  // The fixture: warmup 10 requests, 2 failed; response 1.5 ms (refused ones 0.25 ms), service 1 ms.
  assert.match(table[1], /^warm \(warmup\)\s+response\s+10\s+2(\s+1\.5ms){6}$/);
  assert.match(table[2], /^\s+service(\s+1ms){6}$/);
  assert.match(table[3], /^main\s+response\s+40\s+8(\s+1\.5ms){6}$/);
  assert.match(table[4], /^\s+service(\s+1ms){6}$/);
});

Deno.test("renderTerminal() shows dashes for a stage with no service time", () => {
  const result = writtenResult();
  result.stages[0].service = toEncodedHistogram(createHistogram());
  const table = stageTable(plain(result));
  assert.match(table[2], /^\s+service(\s+-){6}$/);
  assert.match(table[4], /^\s+service(\s+1ms){6}$/);
});

Deno.test("renderTerminal() aligns every column, whatever the width of a stage name", () => {
  for (
    const name of ["a stage with a very long name indeed, longer than any number", "注文 API ✓"]
  ) {
    const result = writtenResult();
    result.stages[1].name = name;
    const table = stageTable(plain(result));
    assert.ok(table[3].startsWith(name));
    // Right-aligned numbers end the line: every row is as wide as the header.
    const width = displayWidth(table[0]);
    for (const row of table) assert.equal(displayWidth(row), width, row);
    // The latency column starts at the same screen column on every stage's row.
    const column = displayWidth(table[0].slice(0, table[0].indexOf("latency")));
    for (const row of [table[1], table[3]]) {
      assert.equal(displayWidth(row.slice(0, row.indexOf("response"))), column, row);
    }
  }
});

Deno.test("renderTerminal()'s first line counts requests and errors, and says when the run stopped early", () => {
  assert.equal(
    plain(writtenResult()).split("\n")[0],
    "shop: 50 of 50 requests completed in 3.0s, 10 errors",
  );
  assert.equal(
    plain(writtenResult({ complete: false, durationMs: 1500 })).split("\n")[0],
    "shop: 50 of 50 requests completed in 1.5s, 10 errors (stopped early: interrupted)",
  );
});

Deno.test("renderTerminal() lists errors by kind, each unexpected status by its code", () => {
  const result = writtenResult();
  const e = result.totals.counts.errors;
  assert.ok((e.refused ?? 0) > 0 && (e.unexpected_status ?? 0) > 0);
  assert.equal(result.totals.counts.statusCodes["500"], e.unexpected_status);
  assert.match(
    plain(result),
    new RegExp(`^errors: 500 × ${e.unexpected_status}, refused × ${e.refused}$`, "m"),
  );
  assert.doesNotMatch(plain(result), /unexpected_status/);
});

Deno.test("renderTerminal() has no errors line when nothing failed", () => {
  const result = writtenResult({}, { everyRequestAnswered: true });
  assert.doesNotMatch(plain(result), /^errors:/m);
});

Deno.test("renderTerminal() reports send lag, CPU per request and send rates of a sound run", () => {
  const text = plain(writtenResult());
  assert.doesNotMatch(text, /TOOL-LIMITED/);
  assert.match(
    text,
    /^tool health: send lag p99 500us, 8000\.0 us CPU\/request, 15\/s sent of 17\/s scheduled$/m,
  );
});

Deno.test("renderTerminal() gives a tool-limited run a TOOL-LIMITED section with every reason", () => {
  const result = writtenResult({ cpu: { userMs: 2990, systemMs: 10 }, durationMs: 3000 });
  result.health.reasons.push("a second reason");
  const text = plain(result);
  assert.match(text, /^TOOL-LIMITED: tailgate fell behind its schedule: no gate was judged:$/m);
  for (const r of result.health.reasons) assert.ok(text.split("\n").includes(`  - ${r}`), r);
  assert.match(text.split("\n").at(-1)!, /^✓ PASS: no gates$/, "the gates, not the health, judge");
});

Deno.test("renderTerminal() shows every verdict with its mark, value against bound and message", async () => {
  const result = await judgedRun(
    { scale: 1.3, slos: ["p99 < 5ms", "p99 < 1ms", 'p99.99 < 5ms for "GET /a"'] },
    [1, 1.01, 0.99],
  );
  result.warnings = ["first warning", "second warning"];
  const lines = plain(result).split("\n");
  const gates = lines.slice(lines.indexOf("gates:") + 1);
  const marks = { pass: "✓ PASS", fail: "✗ FAIL", inconclusive: "? INCONCLUSIVE", invalid: "!" };
  const statuses = new Set(result.verdicts.map((v) => v.status));
  assert.ok(statuses.has("pass") && statuses.has("fail") && statuses.has("inconclusive"));
  for (const v of result.verdicts) {
    const line = gates.find((l) => l.includes(` ${v.name} `) && l.endsWith(v.message));
    assert.ok(line, `verdict "${v.name}" is missing`);
    assert.ok(line.trimStart().startsWith(marks[v.status]), line);
    if (v.measured !== undefined) assert.ok(line.includes(formatMetric(v.measured, v.unit!)));
    if (v.bound !== undefined) assert.ok(line.includes(`vs ${formatMetric(v.bound, v.unit!)}`));
  }
  for (const w of result.warnings) assert.ok(lines.includes(`WARNING: ${w}`));
  assert.match(lines.join("\n"), /^baseline: newest of 3 stored runs, started 2025-02-03T/m);
  const ks = result.verdicts.find((v) => v.kind === "regression" && v.ksDistance !== undefined);
  assert.ok(ks, "the run was compared with its baseline");
  assert.ok(
    lines.some((l) =>
      l.startsWith("shape vs baseline: ") && l.includes(`KS ${ks.ksDistance!.toFixed(3)}`)
    ),
    "the KS distance is shown beside the baseline",
  );
  const failing = result.verdicts.filter((v) => v.status === "fail").length;
  assert.match(
    lines.at(-1)!,
    new RegExp(`^✗ FAIL: ${result.verdicts.length} gates: ${failing} fail`),
  );
});

Deno.test("renderTerminal() colours pass green, fail red, inconclusive yellow and nothing without color", async () => {
  const result = await judgedRun({ slos: ["p99 < 5ms", "p99 < 1ms", 'p99.99 < 5ms for "GET /a"'] });
  const coloured = renderTerminal(result, { color: true });
  const uncoloured = plain(result);
  assert.ok(!uncoloured.includes(ESC));
  assert.equal(stripAnsi(coloured), uncoloured, "colour only adds escape codes");
  const line = (name: string) =>
    coloured.split("\n").find((l) => stripAnsi(l).includes(` ${name} `))!;
  assert.ok(line("p99 < 5ms").includes(`${ESC}[32m`), "pass is green");
  assert.ok(line("p99 < 1ms").includes(`${ESC}[31m`), "fail is red");
  assert.ok(line("p99.99 < 5ms").includes(`${ESC}[33m`), "inconclusive is yellow");
  const service = coloured.split("\n").find((l) => stripAnsi(l).trimStart().startsWith("service"))!;
  assert.ok(service.includes(`${ESC}[2m`), "secondary rows are dim");
  assert.ok(coloured.split("\n").at(-1)!.includes(`${ESC}[31m`), "the failed run's verdict is red");
});

Deno.test("renderTerminal() prints hostile names inert: no escape sequences, no broken lines", async () => {
  const result = await judgedRun({ slos: ["p99 < 5ms"], stageName: "main\n\x1b[2Jcleared\u202e" });
  result.plan.name = "shop\x1b]0;title\x07\r\nfake line";
  result.warnings = ["warn\x1b[31m red"];
  const text = plain(result);
  assert.ok(!text.includes(ESC) && !text.includes("\r") && !text.includes("\u202e"));
  assert.ok(text.split("\n")[0].startsWith("shop\\u001b]0;title\\u0007\\r\\nfake line: "));
  assert.ok(stageTable(text).some((l) => l.startsWith("main\\n\\u001b[2Jcleared\\u202e ")));
  const coloured = renderTerminal(result, { color: true });
  assert.ok(!coloured.includes(`${ESC}[2J`) && !coloured.includes(`${ESC}]0;`));
});

Deno.test("shouldUseColor() follows no-color.org: NO_COLOR wins, FORCE_COLOR forces, dumb terminals and pipes get none", () => {
  const cases: Array<[boolean, Record<string, string>, boolean]> = [
    [true, {}, true],
    [false, {}, false],
    [true, { TERM: "xterm-256color" }, true],
    [true, { TERM: "dumb" }, false],
    [true, { NO_COLOR: "1" }, false],
    [true, { NO_COLOR: "" }, true],
    [true, { NO_COLOR: "0" }, false],
    [false, { FORCE_COLOR: "1" }, true],
    [true, { TERM: "dumb", FORCE_COLOR: "1" }, true],
    [true, { FORCE_COLOR: "0" }, false],
    [true, { FORCE_COLOR: "false" }, false],
    [false, { FORCE_COLOR: "" }, false],
    [false, { FORCE_COLOR: "1", NO_COLOR: "1" }, false],
  ];
  for (const [isTerminal, env, expected] of cases) {
    assert.equal(
      shouldUseColor({ isTerminal, env }),
      expected,
      JSON.stringify({ isTerminal, env }),
    );
  }
});

Deno.test("renderTerminal() prints a line per data source, the vars and the late renders of a templated plan", () => {
  const text = plain(withTraffic(writtenResult()));
  const lines = text.split("\n");
  assert.deepEqual(lines.filter((l) => /^(data|vars|rendered late): /.test(l)), [
    "data: users — data/users.csv, 100,000 rows, sequence: 240,000 draws, all 100,000 rows used, " +
    "wrapped 2.4×",
    "data: regions — data/regions.jsonl, 12 rows, random: 240,000 draws",
    "data: coupons — data/coupons.csv, 1,000 rows, shuffle: 500 draws, 500 of 1,000 rows used",
    "vars: id (uuid), qty (int [1, 20])",
    "rendered late: 1,200 requests were rendered when due instead of ahead of the schedule " +
    "(the generator fell behind rendering them: its own lateness, not the server's)",
  ]);
  assert.ok(
    lines.findIndex((l) => l.startsWith("tool health:")) < lines.indexOf(
      lines.find((l) => l.startsWith("data: "))!,
    ),
  );
  const coloured = renderTerminal(withTraffic(writtenResult()), { color: true });
  assert.ok(coloured.includes(`${ESC}[33mrendered late: 1,200`), "late renders are yellow");
  assert.equal(stripAnsi(coloured), text);
});

Deno.test("renderTerminal() prints a hostile data file and var inert", () => {
  const result = withTraffic(writtenResult(), HOSTILE_TRAFFIC);
  result.traffic!.sources[0].file = "data/\x1b[2Jcleared\n\u202efake.csv";
  const text = plain(result);
  assert.ok(!text.includes(ESC) && !text.includes("\u2028") && !text.includes("\u202e"));
  assert.ok(text.includes("data/\\u001b[2Jcleared\\n\\u202efake.csv, 100,000 rows"));
  assert.equal(text.split("\n").filter((l) => l.startsWith("data: ")).length, 1);
});

Deno.test("renderTerminal() of a result without traffic prints no traffic lines", () => {
  const text = plain(writtenResult());
  assert.doesNotMatch(text, /^(data|vars|rendered late): /m);
  const withIt = plain(withTraffic(writtenResult()));
  assert.equal(
    withIt.split("\n").filter((l) => !/^(data|vars|rendered late): /.test(l)).join("\n"),
    text,
  );
});

Deno.test("renderTerminal() of a plan without SLOs whose requests all failed: the implicit gate, FAIL", async () => {
  const lines = plain(await rejectedRun()).split("\n");
  const gates = lines.slice(lines.indexOf("gates:") + 1);
  const row = gates.find((l) => l.includes("error_rate <= 1% (implicit)"));
  assert.ok(row, lines.join("\n"));
  assert.match(row, /^ {2}✗ FAIL +error_rate <= 1% \(implicit\) +100% +vs 1%/);
  assert.match(row, /`allow_errors: true` to let errors pass$/);
  assert.equal(lines.at(-1), "✗ FAIL: 1 gate: 1 fail");
});

Deno.test("renderTerminal() warns, above the verdict, when only regression checks are undecided", async () => {
  const result = await undecidedRegressionRun();
  assert.equal(result.verdict?.status, "inconclusive");
  assert.equal(result.verdict?.regressionOnly, true);
  const lines = plain(result).split("\n");
  const warning = lines.findIndex((l) =>
    l.startsWith("WARNING: only regression checks are undecided: a warning, not a failure")
  );
  assert.ok(warning > 0, lines.join("\n"));
  assert.match(lines.at(-1)!, /^\? INCONCLUSIVE: /);
  assert.ok(warning < lines.length - 1);
  const slo = await judgedRun({ slos: ['p99.99 < 5ms for "GET /a"'] });
  assert.equal(slo.verdict?.status, "inconclusive");
  assert.doesNotMatch(plain(slo), /only regression checks are undecided/);
});

Deno.test("renderTerminal() names the protocol under the first line, HTTP/1.1 for a result without one", () => {
  const result = writtenResult();
  assert.equal(plain(result).split("\n")[1], "protocol: HTTP/1.1");
  delete result.run.protocol;
  assert.equal(plain(result).split("\n")[1], "protocol: HTTP/1.1");
  result.run.protocol = "h2";
  result.run.maxStreams = 8;
  assert.equal(
    plain(result).split("\n")[1],
    "protocol: HTTP/2 over TLS (h2), up to 8 streams per connection",
  );
});

Deno.test("renderTerminal() calls the queue wait of an HTTP/2 run the wait for a free stream", () => {
  const result = writtenResult();
  result.health.queueWait = toEncodedHistogram(pointsUs([[2_000, 30], [40_000, 10]]));
  assert.match(plain(result), /; 40 requests waited for a connection \(up to 40\.\d*ms, counted/);
  result.run.protocol = "h2c";
  const text = plain(result);
  assert.match(text, /; 40 requests waited for a free stream \(up to 40\.\d*ms, counted/);
  assert.doesNotMatch(text, /waited for a connection/);
});

Deno.test("renderTerminal() prints the machine's contention after the floor, only when measured", () => {
  assert.doesNotMatch(plain(writtenResult()), /^machine:/m);
  const result = writtenResult();
  result.health.contention = {
    source: "service",
    service: { found: "listening_socket", pids: [41], name: "nginx" },
    pressureMs: 100,
    stealMs: 0,
    serviceWaitMs: 60,
    share: 0.06,
    worst: { startMs: 1000, waitMs: 30 },
  };
  assert.match(
    plain(result),
    /^machine: the service \(nginx, pid 41\) waited 60ms for a CPU over 2s \(worst second 1s: 30ms\); CPU pressure 5\.0%; steal 0ms$/m,
  );
});

Deno.test("renderTerminal() lists each label's requests, errors by code, p50 and p99 after the stages", () => {
  const text = plain(writtenResult());
  const lines = text.split("\n");
  const start = lines.findIndex((l) => /^label\s+requests\s+errors\s+p50\s+p99$/.test(l));
  assert.ok(start > 0, text);
  // The fixture's measured stage: 20 requests a label, every 10th refused, /b's every 7th a 500.
  assert.match(lines[start + 1], /^GET \/a\s+20\s+refused × 2\s+1\.5ms\s+1\.5ms$/);
  assert.match(lines[start + 2], /^GET \/b\s+20\s+500 × 4, refused × 2\s+1\.5ms\s+1\.5ms$/);
  assert.equal(lines[start + 3], "");
});

Deno.test("renderTerminal() lists at most 20 labels, the busiest, and counts the rest", () => {
  const result = writtenResult();
  const [a] = result.stages[1].labels;
  result.stages[1].labels = Array.from({ length: 23 }, (_, i) => ({ ...a, label: `GET /${i}` }));
  result.plan.requests = result.stages[1].labels.map((l) => ({
    ...result.plan.requests[0],
    label: l.label,
  }));
  const text = plain(result);
  assert.equal(text.split("\n").filter((l) => /^GET \/\d+ /.test(l)).length, 20);
  assert.match(text, /^… 3 more labels \(see the HTML report\)$/m);
});

Deno.test("renderTerminal() adds a ttfb row per stage and says what it measures, for a result that has it", () => {
  const text = plain(writtenResult({}, { firstByte: true }));
  const table = stageTable(text);
  // The fixture's first bytes come 1 ms after the fire time, the responses 1.5 ms after.
  assert.match(table[3], /^\s+ttfb(\s+1ms){6}$/);
  assert.match(table[4], /^main\s+response\s+40\s+8(\s+1\.5ms){6}$/);
  assert.match(table[6], /^\s+ttfb(\s+1ms){6}$/);
  assert.match(
    text,
    /service = from the actual send; ttfb = to the first response byte, from the intended send time$/m,
  );
  // Label rows gain p99 of the time to first byte.
  assert.match(text, /^label\s+requests\s+errors\s+p50\s+p99\s+ttfb p99$/m);
});

Deno.test("renderTerminal() of a result without ttfb prints as before: no ttfb row, column or words", () => {
  const text = plain(writtenResult());
  assert.doesNotMatch(text, /ttfb/);
  assert.match(text, /^label\s+requests\s+errors\s+p50\s+p99$/m);
});

Deno.test("renderTerminal() says how many requests were rate limited, their Retry-After and when", () => {
  const result = writtenResult({}, { rateLimited: true });
  const limited = result.totals.counts.errors.rate_limited!;
  assert.ok(limited > 0);
  assert.deepEqual(result.totals.counts.retryAfterS, { "30": limited });
  assert.match(
    plain(result),
    new RegExp(
      `^rate limited: ${limited} requests? \\(429, or 503 with Retry-After\\), Retry-After 30s × ${limited}, due from \\d+(\\.\\d)?s to \\d+(\\.\\d)?s into the run$`,
      "m",
    ),
  );
  assert.match(plain(result), new RegExp(`^errors: .*rate_limited × ${limited}`, "m"));
  assert.doesNotMatch(plain(writtenResult()), /rate limited/);
});

Deno.test("renderTerminal() names a gRPC run's statuses, its protocol and a stream's messages", async () => {
  const text = plain(await judgedGrpcResult());
  const lines = text.split("\n");
  assert.equal(
    lines[1],
    "protocol: gRPC over h2c, HTTP/2 cleartext (h2c), up to 8 streams per connection",
  );
  assert.ok(lines.includes("errors: UNAVAILABLE × 12"), text);
  assert.match(text, /^Greeter\/SayHello +20 +UNAVAILABLE × 12 /m);
  assert.match(text, /^RouteGuide\/ListFeatures +20 +0 /m);
  assert.ok(
    lines.includes("streams: RouteGuide/ListFeatures 64 messages per stream (1,280 in 20 streams)"),
    text,
  );
  assert.match(text, /; ttfb = to the first response message, from the intended send time$/m);
  assert.match(text, /implicit gate: 12 of 40 judged requests failed \(UNAVAILABLE × 12\)/);
  // An HTTP run says none of it.
  const http = plain(writtenResult());
  assert.doesNotMatch(http, /gRPC|streams:|response message/);
});

Deno.test("renderTerminal() names the slowest request's trace id under each failed latency gate", () => {
  const result = withSlowest(reportResult(), true);
  const lines = plain(result).split("\n");
  const sent = `${((result.stages[2].startMs + 7.25) / 1000).toFixed(3)} s`;
  const slowest = `      ↳ slowest request: ${traceIdOf(2, 1, 0)}, 29ms, sent at ${sent} ` +
    `(POST /order, climb, 200)`;
  for (const gate of ["p90 < 1ms", "max < 1ms"]) {
    const at = lines.findIndex((l) => l.startsWith(`  ✗ FAIL  ${gate} `));
    assert.equal(lines[at + 1], slowest, gate);
  }
  const pass = lines.findIndex((l) => l.startsWith("  ✓ PASS  p50 < 5ms "));
  assert.ok(!lines[pass + 1].includes("slowest"), "a passed gate names none");
  assert.equal(lines.filter((l) => l.includes("slowest request")).length, 2);
});

Deno.test("renderTerminal() keeps to a failed gate's label, and says how to get trace ids without them", () => {
  const result = withSlowest(reportResult(), false);
  const failed = result.verdicts.find((v) => v.name === "max < 1ms")!;
  result.verdicts = [{
    ...failed,
    name: "max < 1ms for GET /cart",
    label: "GET /cart",
    stageIndexes: [1],
  }];
  const line = plain(result).split("\n").find((l) => l.includes("slowest request"));
  assert.match(
    line ?? "",
    /^ {6}↳ slowest request: 14ms, sent at \d+\.\d{3} s \(GET \/cart, steady, 200\); no trace id \(trace: true or --trace sends one\)$/,
  );
  assert.ok(
    !plain(withoutSlowest(reportResult())).includes("slowest request"),
    "none without kept requests",
  );
});

Deno.test("renderTerminal() prints a hostile label under a gate inert", () => {
  const result = withSlowest(reportResult(), true);
  result.stages[2].labels[1].label = "x\x1b[2J\r\nfake";
  const text = renderTerminal(result, { color: true });
  assert.ok(!text.includes(`${ESC}[2J`) && !text.includes("\r"));
  assert.ok(text.includes("(x\\u001b[2J\\r\\nfake, climb, 200)"));
});
