import assert from "node:assert/strict";
import { escapeMarkdown, markdownTable, markdownUrl } from "../../reporters/markdown_table.ts";

Deno.test("escapeMarkdown() escapes pipes, backslashes, code, emphasis, links and HTML", () => {
  assert.equal(escapeMarkdown("a|b"), "a\\|b");
  // A backslash before a pipe is escaped too, so the pipe stays escaped.
  assert.equal(escapeMarkdown("a\\|b"), "a\\\\\\|b");
  assert.equal(escapeMarkdown("`x` *y* _z_ [l](u)"), "\\`x\\` \\*y\\* \\_z\\_ \\[l\\](u)");
  assert.equal(escapeMarkdown("<img src=x> & co"), "&lt;img src=x&gt; &amp; co");
  assert.equal(escapeMarkdown("line\nbreak\r\x1b"), "line break  ");
});

Deno.test("escapeMarkdown() cuts long text to its limit with an ellipsis, whole characters only", () => {
  assert.equal(escapeMarkdown("abcdef", 4), "abc…");
  assert.equal(escapeMarkdown("🚀🚀🚀", 2), "🚀…");
  assert.equal(escapeMarkdown("abc", 3), "abc");
});

Deno.test("markdownTable() writes header, separator with alignment, and refuses a short row", () => {
  assert.deepEqual(markdownTable(["a", "b"], ["left", "right"], [["1", "2"]]), [
    "| a | b |",
    "| --- | ---: |",
    "| 1 | 2 |",
  ]);
  assert.throws(() => markdownTable(["a", "b"], ["left", "left"], [["1"]]), /1 cells/);
});

Deno.test("markdownUrl() percent-encodes what would end a link destination", () => {
  assert.equal(markdownUrl("a b/(c)<d>"), "a%20b/%28c%29%3Cd%3E");
  assert.equal(markdownUrl("https://x.io/r.html"), "https://x.io/r.html");
});
