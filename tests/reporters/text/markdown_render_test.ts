/**
 * The Markdown summary as a GitHub-flavoured renderer shows it: real tables, with every row
 * as wide as its header, and hostile plan text as text.
 */
import assert from "node:assert/strict";
import { renderMarkdown } from "../../../reporters/text/markdown.ts";
import { gfmToHtml } from "../../_helpers/_marked.ts";
import {
  HOSTILE_PLAN_TEXT,
  htmlTables,
  markdownProblems,
} from "../../_helpers/markdown_assertions.ts";
import { judgedRun } from "../_judged_results.ts";

Deno.test("renderMarkdown() renders as a gate table, a latency table and a label table on a GFM renderer", async () => {
  const result = await judgedRun({ slos: ["p99 < 5ms", "p50 < 1ms"] }, [1, 1.01, 0.99]);
  const html = gfmToHtml(renderMarkdown(result));
  const tables = htmlTables(html);
  assert.equal(tables.length, 3, html);
  const [gates, latency, labels] = tables;
  // One row per label of the two the run had, as wide as its header.
  assert.equal(labels.rows.length, 2);
  assert.equal(labels.header, 5);
  assert.equal(gates.rows.length, result.verdicts.length);
  for (const t of tables) {
    assert.ok(t.rows.length > 0);
    for (const cells of t.rows) assert.equal(cells, t.header, "every row as wide as its header");
  }
  assert.ok(latency.header >= 6);
  assert.match(html, /<code>report\.html<\/code> in this run&#39;s artifact/);
  const linked = gfmToHtml(renderMarkdown(result, { htmlUrl: "https://ci.example/run/7" }));
  assert.match(linked, /<a href="https:\/\/ci\.example\/run\/7">/);
});

Deno.test("renderMarkdown() keeps hostile plan text as text once rendered", async () => {
  const label = "GET /x|<img src=x onerror=alert(1)>";
  const result = await judgedRun(
    { slos: [`p99 < 5ms for '${label}'`], labels: [label, "GET /b"], stageName: "a\n| b | c |" },
    [1, 1.01, 0.99],
  );
  result.plan.name = "shop <script>alert(1)</script> [x](http://example.com)";
  const html = gfmToHtml(renderMarkdown(result));
  assert.doesNotMatch(html, /<img|<script/);
  // Text cannot hide a link behind a name (nor link a bare URL: see the test below).
  assert.doesNotMatch(html, /<a href="http:\/\/example\.com">x<\/a>/);
  assert.match(html, /&lt;img src=x onerror=alert\(1\)&gt;/);
  for (const t of htmlTables(html)) {
    for (const cells of t.rows) assert.equal(cells, t.header);
  }
});

Deno.test("renderMarkdown() renders hostile plan, stage, label, SLO and warning text inert: no image, link, tag or mention, no broken row", async () => {
  const text = HOSTILE_PLAN_TEXT;
  const result = await judgedRun(
    { slos: [`p99 < 5ms for '${text}'`], labels: [text, "GET /b"], stageName: text },
    [1, 1.01, 0.99],
  );
  result.plan.name = text;
  result.warnings = [`baseline not used: ${text}`];
  const markdown = renderMarkdown(result, { htmlUrl: "https://ci.example/run/7" });
  assert.deepEqual(markdownProblems(markdown, ["https://ci.example/run/7"]), []);
  assert.ok(markdown.split("\n")[0].includes("@\u200boctocat"), "the name is kept, inert");
});
