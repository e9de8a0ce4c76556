/**
 * The one rule for plan-controlled text in Markdown (the summary, the A/B and search pages,
 * `compare --format md`, the GitHub Action's job summary and pull-request comment): it renders as
 * itself, in a line, a list item, a heading or a table cell, and GitHub turns none of it into an
 * image, a link, HTML, a mention or an issue reference.
 *
 * @module
 */
import { printable } from "../../runner/plan/mod.ts";

/** Markdown punctuation that a backslash makes literal wherever it stands. */
const BACKSLASHED = new Set(["\\", "`", "*", "_", "[", "]", "!", "#", "|", "~", "$"]);

/** HTML's own characters, as entities: GitHub renders inline HTML, entities stay text. */
const ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;" };

/**
 * Invisible, and not a letter, digit or slash: after `@`, `#`, `:` or `www` it stops GitHub's
 * mentions, issue references and bare links.
 */
const ZERO_WIDTH_SPACE = "\u200b";

/** What would start a list, a rule or a heading underline at the start of a line: `- `, `---`. */
const LIST_MARK = /^[-+=](?=[ =-]|$)/;

/** A number that would start an ordered list at the start of a line: `1. `, `2)`. */
const LIST_NUMBER = /^(\d+)([.)])(?= |$)/;

/** Characters a zero-width space follows. */
const MARKED = new Set(["@", "#"]);

/**
 * Plan-controlled text for any Markdown line or table cell, cut to `maxChars` characters (with
 * `…`). The rule, in order:
 *
 * - control characters, line breaks and bidirectional overrides are written as escapes
 *   (`\n`, `\u001b`) by {@linkcode printable}, as on a terminal: a name keeps to its line and cell;
 * - `&`, `<`, `>` become entities, so no HTML (`<img src=…>`) passes;
 * - ``\ ` * _ [ ] ! # | ~ $`` are backslash-escaped: no emphasis, code, link, image
 *   (`![x](…)`), heading, table cell break or math (with `[` and `]` escaped, `(` and `)` open
 *   nothing and stay as they are);
 * - at the start, a space becomes `&#32;` (no code block), and a list mark (`- `, `+ `, `1. `,
 *   `2) `) or the start of a rule (`---`, `===`) is escaped: no list, rule or heading when the
 *   text begins a line or a list item;
 * - a zero-width space (U+200B) follows every `@` and `#`, and splits `://`, `www.` and `GH-1`.
 *   GitHub finds mentions (`@octocat`, `@org/team`), issue references (`#1`, `GH-1`) and bare
 *   links (`http://…`, `www.…`, `a@b.io`) in the text after rendering, where escapes and entities
 *   are already undone: `\@octocat` and `&#64;octocat` still ping, and a code span would show the
 *   backslashes. Only a character that is neither a letter nor a digit between the mark and the
 *   name stops them (as GitHub's own issues on escaping `@` advise); a zero-width space does so and
 *   shows nothing. (`:emoji:` is left alone: GitHub draws it from its own images.)
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { markdownText } from "./markdown_escape.ts";
 * assert.equal(markdownText("a|b <img src=x>"), "a\\|b &lt;img src=x&gt;");
 * assert.equal(markdownText("@octocat"), "@\u200boctocat");
 * ```
 */
export function markdownText(text: string, maxChars = Infinity): string {
  const chars = [...printable(text)];
  const kept = chars.length > maxChars
    ? [...chars.slice(0, Math.max(0, maxChars - 1)), "…"]
    : chars;
  let out = "";
  for (const c of kept) {
    out += BACKSLASHED.has(c) ? `\\${c}` : ENTITIES[c] ?? c;
    if (MARKED.has(c)) out += ZERO_WIDTH_SPACE;
  }
  out = out.replace(/:(?=\/\/)|www(?=\.)|gh(?=-\d)/gi, `$&${ZERO_WIDTH_SPACE}`);
  return out.replace(/^ /, "&#32;").replace(LIST_MARK, "\\$&").replace(LIST_NUMBER, "$1\\$2");
}
