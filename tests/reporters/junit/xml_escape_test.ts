import assert from "node:assert/strict";
import { xmlAttr, xmlText } from "../../../reporters/junit/xml_escape.ts";

Deno.test("xmlText() escapes the five markup characters", () => {
  assert.equal(xmlText(`<a href="x">&'</a>`), "&lt;a href=&quot;x&quot;&gt;&amp;&#39;&lt;/a&gt;");
});

Deno.test("xmlText() replaces the characters XML 1.0 forbids and keeps the ones it allows", () => {
  assert.equal(
    xmlText("a\u0000b\u0008c\u000Bd\u001Fe\uFFFEf\uFFFF"),
    "a\uFFFDb\uFFFDc\uFFFDd\uFFFDe\uFFFDf\uFFFD",
  );
  assert.equal(xmlText("tab\tnl\ncr\r del\u007F é 😀"), "tab\tnl\ncr\r del\u007F é 😀");
});

Deno.test("xmlText() replaces unpaired surrogates but keeps surrogate pairs", () => {
  assert.equal(xmlText("x\uD83Dy\uDE00z\uD83D\uDE00"), "x\uFFFDy\uFFFDz😀");
});

Deno.test("xmlAttr() writes tab, newline and carriage return as references so they survive", () => {
  assert.equal(xmlAttr("a\tb\nc\r'd'\u0001"), "a&#9;b&#10;c&#13;&#39;d&#39;\uFFFD");
});
