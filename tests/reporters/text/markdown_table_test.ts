import assert from "node:assert/strict";
import { markdownTable, markdownUrl } from "../../../reporters/text/markdown_table.ts";

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
