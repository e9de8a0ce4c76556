import assert from "node:assert/strict";
import { formatRunSummary } from "../../../runner/cli/run_summary.ts";
import { createHistogram } from "../../../runner/recorder/_hdr.ts";
import { toEncodedHistogram } from "../../../runner/recorder/encoded_histogram.ts";
import { sampleResult } from "../../_helpers/result_fixtures.ts";

Deno.test("the summary shows a response row and a service row for every stage", () => {
  const lines = formatRunSummary(sampleResult()).split("\n");
  const header = lines.findIndex((l) =>
    /^stage\s+latency\s+requests\s+errors\s+p50\s+p90\s+p99\s+p99\.9\s+p99\.99\s+max$/.test(l)
  );
  assert.ok(header >= 0, "no table header");
  const [warm, warmService, main, mainService] = lines.slice(header + 1, header + 5);
  // Warmup: 10 requests, 2 failed; response 1.5 ms (refused ones 0.25 ms), service 1 ms.
  assert.match(
    warm,
    /^warm \(warmup\)\s+response\s+10\s+2\s+1\.5ms\s+1\.5ms\s+1\.5ms\s+1\.5ms\s+1\.5ms\s+1\.5ms$/,
  );
  assert.match(warmService, /^\s+service\s+1ms\s+1ms\s+1ms\s+1ms\s+1ms\s+1ms$/);
  assert.match(main, /^main\s+response\s+40\s+8\s+1\.5ms(\s+1\.5ms){5}$/);
  assert.match(mainService, /^\s+service(\s+1ms){6}$/);
});

Deno.test("a stage with no service time shows dashes in its service row", () => {
  const result = sampleResult();
  result.stages[0].service = toEncodedHistogram(createHistogram());
  const lines = formatRunSummary(result).split("\n");
  const warm = lines.findIndex((l) => l.startsWith("warm (warmup)"));
  assert.match(lines[warm + 1], /^\s+service(\s+-){6}$/);
  assert.match(lines[warm + 3], /^\s+service(\s+1ms){6}$/);
});

Deno.test("the summary's first line counts requests and errors, and says when the run stopped early", () => {
  const complete = formatRunSummary(sampleResult()).split("\n")[0];
  assert.equal(complete, "shop: 50 of 50 requests completed in 3.0s, 10 errors");
  const stopped =
    formatRunSummary(sampleResult({ complete: false, durationMs: 1500 })).split("\n")[0];
  assert.equal(
    stopped,
    `shop: 50 of 50 requests completed in 1.5s, 10 errors (stopped early: interrupted)`,
  );
});

Deno.test("the summary lists errors by kind", () => {
  const result = sampleResult();
  const text = formatRunSummary(result);
  const expected = result.totals.counts.errors;
  assert.ok((expected.refused ?? 0) > 0 && (expected.unexpected_status ?? 0) > 0);
  assert.match(
    text,
    new RegExp(
      `^errors: refused ${expected.refused}, unexpected_status ${expected.unexpected_status}$`,
      "m",
    ),
  );
});

Deno.test("the summary has no errors line when nothing failed", () => {
  const result = sampleResult();
  result.totals.counts.errors = {};
  assert.doesNotMatch(formatRunSummary(result), /^errors:/m);
});

Deno.test("a tool-limited run gets a TOOL-LIMITED section with every reason", () => {
  const result = sampleResult({ cpu: { userMs: 2990, systemMs: 10 }, durationMs: 3000 });
  const text = formatRunSummary(result);
  assert.match(
    text,
    /^TOOL-LIMITED: these numbers describe tailgate's limits, not the server's:$/m,
  );
  assert.match(
    text,
    /^ {2}- tailgate's process used 100% of a CPU core, so it could not keep up by itself$/m,
  );
  result.health.reasons.push("a second reason");
  assert.match(formatRunSummary(result), /^ {2}- a second reason$/m);
});

Deno.test("a sound run has no TOOL-LIMITED section and reports its send rates", () => {
  const text = formatRunSummary(sampleResult());
  assert.doesNotMatch(text, /TOOL-LIMITED/);
  assert.match(
    text,
    /^tool health: send lag p99 500us, 8000\.0 us CPU\/request, 15\/s sent of 17\/s scheduled$/m,
  );
});
