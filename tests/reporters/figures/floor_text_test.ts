import assert from "node:assert/strict";
import { floorSentence, floorsOf } from "../../../reporters/figures/floor_text.ts";
import { renderHtml } from "../../../reporters/html/html.ts";
import { renderMarkdown } from "../../../reporters/text/markdown.ts";
import { renderTerminal } from "../../../reporters/text/terminal.ts";
import { createHistogram } from "../../../runner/hdr/mod.ts";
import { toEncodedHistogram } from "../../../runner/hdr/encoded_histogram.ts";
import type { RunResult } from "../../../runner/model/run_result.ts";
import { writtenResult } from "../../_helpers/result_fixtures.ts";

/** 10,000 samples at `baseUs`, `tail` of them at `tailUs`. */
function hist(baseUs: number, tailUs: number, tail: number) {
  const h = createHistogram();
  h.recordValueWithCount(baseUs, 10_000 - tail);
  h.recordValueWithCount(tailUs, tail);
  return toEncodedHistogram(h);
}

function withFloor(): RunResult {
  const result = writtenResult();
  result.health.engineStall = hist(20, 1_500, 20); // p99.9 1.5 ms, p99 20 us
  result.health.platformHiccup = hist(60, 4_000, 15); // p99.9 4 ms, p99 60 us
  return result;
}

Deno.test("the floor sentence names the floor at p99.9 and both of its parts", () => {
  const sentence = floorSentence(withFloor());
  assert.equal(
    sentence,
    "p99 60us, p99.9 4.001ms (engine stalls p99.9 1.5ms, platform hiccups " +
      "p99.9 4.001ms): below 4.001ms at p99.9 this run cannot tell the server's latency from " +
      "its own pauses",
  );
});

Deno.test("a result with no floor measured (older tailgate) states none instead of a zero", () => {
  const result = writtenResult();
  assert.equal(result.health.engineStall.count, 0);
  assert.deepEqual(floorsOf(result), []);
  assert.equal(floorSentence(result), undefined);
  assert.doesNotMatch(renderTerminal(result, { color: false }), /measured floor/);
});

Deno.test("the terminal, Markdown and HTML reports all state the measured floor", () => {
  const result = withFloor();
  const sentence = floorSentence(result)!;
  assert.ok(renderTerminal(result, { color: false }).includes(`measured floor: ${sentence}`));
  assert.ok(renderMarkdown(result).includes(`**Measured floor:** ${sentence}`));
  const html = renderHtml(result);
  assert.ok(html.includes("<strong>Measured floor:</strong>"));
  assert.ok(html.includes(sentence.replaceAll("'", "&#39;")), "the sentence, HTML-escaped");
  assert.match(html, /platform hiccups/);
});
