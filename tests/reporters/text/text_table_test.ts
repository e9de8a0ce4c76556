import assert from "node:assert/strict";
import { printable } from "../../../runner/plan/printable.ts";
import { displayWidth, textTable } from "../../../reporters/text/text_table.ts";

Deno.test("displayWidth() counts wide CJK and emoji as two columns and combining marks as none", () => {
  assert.equal(displayWidth("GET /a"), 6);
  assert.equal(displayWidth("注文"), 4);
  assert.equal(displayWidth("🚀"), 2);
  assert.equal(displayWidth("e\u0301"), 1);
});

Deno.test("textTable() pads to the widest cell on screen and styles only the text, not the padding", () => {
  const lines = textTable(
    [["name", "p99"], ["注文", { text: "1ms", style: (t) => `<${t}>` }], ["a long name", "12.5ms"]],
    ["left", "right"],
  );
  assert.deepEqual(lines, ["name            p99", "注文            <1ms>", "a long name  12.5ms"]);
});

Deno.test("printable() writes control characters, line breaks and bidi overrides as escapes", () => {
  assert.equal(printable("a\nb\r\tc"), "a\\nb\\r\\tc");
  assert.equal(printable("\x1b[2J\u202e\u0085"), "\\u001b[2J\\u202e\\u0085");
  assert.equal(printable("GET /注文 ✓"), "GET /注文 ✓");
});

Deno.test("displayWidth() measures an emoji sequence as the one glyph a terminal draws", () => {
  assert.equal(displayWidth("👩‍👩‍👧"), 2);
  assert.equal(displayWidth("🇯🇵"), 2);
  assert.equal(displayWidth("e\u0301"), 1);
});
