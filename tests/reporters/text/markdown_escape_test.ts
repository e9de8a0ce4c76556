import assert from "node:assert/strict";
import { markdownText } from "../../../reporters/text/markdown_escape.ts";
import { printable } from "../../../runner/plan/printable.ts";
import { gfmToHtml } from "../../_helpers/_marked.ts";
import {
  HOSTILE_PLAN_TEXT,
  markdownProblems,
  renderedText,
} from "../../_helpers/markdown_assertions.ts";
import { mulberry32 } from "../../_helpers/seeded_random.ts";

/** Where a report puts plan text: each kind of line and a table cell. */
const PLACES: Array<[string, (text: string) => string]> = [
  ["a line's start", (t) => t],
  ["a line", (t) => `name: ${t} end`],
  ["a list item", (t) => `- ${t}`],
  ["a heading", (t) => `## ${t}`],
  ["bold text", (t) => `**${t}**`],
  ["a table cell", (t) => `| a | b |\n| --- | --- |\n| ${t} | x |`],
];

/** Pieces of Markdown, HTML, GitHub references and control characters that random text joins. */
const PIECES = [
  "a",
  "1",
  "12",
  " ",
  "    ",
  "\n",
  "\t",
  "\r\n",
  "\x1b[2J",
  "\u2028",
  "\u202e",
  "\u00a0",
  "\\",
  "`",
  "```",
  "~~~",
  "*",
  "_",
  "~",
  "$",
  "[",
  "]",
  "(",
  ")",
  "!",
  "<",
  ">",
  "&",
  "&amp;",
  "&#64;",
  "#",
  "|",
  "-",
  "+",
  "=",
  ".",
  ")",
  ":",
  "//",
  "@",
  "@octocat",
  "@org/team",
  "#1",
  "GH-2",
  "a@b.io",
  "www.x.io",
  "http://x.io/p.png",
  "![t](http://x.io/p.png)",
  "[l](http://x.io)",
  "<img src=x>",
  "<!--",
  "---",
  "1.",
  "[^1]",
  "[!NOTE]",
  ":+1:",
  "'",
  '"',
];

function randomText(random: () => number): string {
  const length = 1 + Math.floor(random() * 12);
  return Array.from({ length }, () => PIECES[Math.floor(random() * PIECES.length)]).join("");
}

Deno.test("markdownText() keeps the tracker image, raw HTML, pipe, mentions and issue reference of a plan name inert", () => {
  for (const [place, put] of PLACES) {
    assert.deepEqual(markdownProblems(put(markdownText(HOSTILE_PLAN_TEXT))), [], place);
  }
  const shown = markdownText("@octocat @org/team #1 a@b.io");
  assert.equal(shown, "@\u200boctocat @\u200borg/team \\#\u200b1 a@\u200bb.io");
});

Deno.test("markdownText() renders any plan text as itself, in every place a report puts it, on a GFM renderer", () => {
  const seed = 26_3;
  const random = mulberry32(seed);
  for (let i = 0; i < 600; i++) {
    const text = randomText(random);
    const escaped = markdownText(text);
    for (const [place, put] of PLACES) {
      const problems = markdownProblems(put(escaped));
      assert.deepEqual(problems, [], `seed ${seed}, case ${i}, ${place}: ${JSON.stringify(text)}`);
    }
    const shown = renderedText(gfmToHtml(`name: ${escaped} end`)).replaceAll("\u200b", "");
    assert.equal(
      shown.trim(),
      `name: ${printable(text)} end`,
      `seed ${seed}, case ${i}: ${JSON.stringify(text)}`,
    );
  }
});

Deno.test("markdownText() writes control characters, line breaks and bidi overrides as visible escapes", () => {
  assert.equal(markdownText("a\nb\r\x1b\u202e"), "a\\\\nb\\\\r\\\\u001b\\\\u202e");
  assert.equal(markdownText("a|b <i> & c"), "a\\|b &lt;i&gt; &amp; c");
});

Deno.test("markdownText() cuts long text to its limit with an ellipsis, whole characters only", () => {
  assert.equal(markdownText("abcdef", 4), "abc…");
  assert.equal(markdownText("🚀🚀🚀", 2), "🚀…");
  assert.equal(markdownText("abc", 3), "abc");
  assert.equal(markdownText("@@@@", 2), "@\u200b…", "cut before escaping: a mark is never split");
});
