/**
 * The Markdown summary as a GitHub-flavoured renderer shows it: real tables, with every row
 * as wide as its header, and hostile plan text as text.
 */
import assert from "node:assert/strict";
import { renderMarkdown } from "../../reporters/markdown.ts";
import { gfmToHtml } from "../_helpers/_marked.ts";
import { judgedRun } from "./_judged_results.ts";

function tablesOf(html: string): { header: number; rows: number[] }[] {
  return [...html.matchAll(/<table>([\s\S]*?)<\/table>/g)].map(([, body]) => {
    const rows = [...body.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map(([, row]) =>
      (row.match(/<t[hd][ >]/g) ?? []).length
    );
    return { header: rows[0], rows: rows.slice(1) };
  });
}

Deno.test("renderMarkdown() renders as a gate table and a latency table on a GFM renderer", async () => {
  const result = await judgedRun({ slos: ["p99 < 5ms", "p50 < 1ms"] }, [1, 1.01, 0.99]);
  const html = gfmToHtml(renderMarkdown(result));
  const tables = tablesOf(html);
  assert.equal(tables.length, 2, html);
  const [gates, latency] = tables;
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
  // A bare URL is linked as itself (GitHub does so too); text cannot hide a link behind a name.
  assert.doesNotMatch(html, /<a href="http:\/\/example\.com">x<\/a>/);
  assert.match(html, /&lt;img src=x onerror=alert\(1\)&gt;/);
  for (const t of tablesOf(html)) {
    for (const cells of t.rows) assert.equal(cells, t.header);
  }
});
