/**
 * Checks that Markdown built from plan text renders inert on GitHub: rendered by a GFM renderer
 * (`marked`), it holds only the tags a report writes (no image, no raw HTML, no link but the
 * report's own), every table row as wide as its header, and no text that GitHub's post-processing
 * would turn into an `@mention`, a team mention, an issue reference or an autolink.
 *
 * @module
 */
import { gfmToHtml } from "./_marked.ts";

/**
 * Plan text that tries every trick at once: an image and a raw `<img>` (trackers), a table pipe,
 * a user and a team mention, an issue reference, an e-mail and a bare `www.` link.
 *
 * @example
 * ```ts
 * import { HOSTILE_PLAN_TEXT } from "./markdown_assertions.ts";
 * HOSTILE_PLAN_TEXT.includes("@octocat"); // true
 * ```
 */
export const HOSTILE_PLAN_TEXT: string =
  "x ![t](http://tracker.invalid/p.png) <img src=http://tracker.invalid/q> | @octocat " +
  "@org/team #1 GH-2 a@tracker.invalid www.tracker.invalid";

/** The tags a report's Markdown renders to; `a` only with an allowed `href`. */
const REPORT_TAGS = new Set([
  "p",
  "h1",
  "h2",
  "h3",
  "h4",
  "strong",
  "em",
  "code",
  "ul",
  "li",
  "table",
  "thead",
  "tbody",
  "tr",
  "th",
  "td",
  "a",
]);

/**
 * What GitHub links in the text of a comment after rendering it (html-pipeline's mention and
 * issue-reference filters, GFM's extended autolinks): escapes and entities are already undone
 * there, so only a character between the marker and the name stops them.
 */
const GITHUB_LINKED_TEXT: Array<[string, RegExp]> = [
  ["a mention", /(?:^|\W)@[a-z0-9]/i],
  ["an issue reference", /(?:^|\W)(?:#|gh-)\d/i],
  ["an autolink", /(?:https?|ftp):\/\/|(?:^|[\s*_~(])www\./i],
];

/**
 * Each table of rendered HTML: its header's and each body row's cell count.
 *
 * @example
 * ```ts
 * import { htmlTables } from "./markdown_assertions.ts";
 * htmlTables("<table><tr><th>a</th></tr><tr><td>1</td></tr></table>");
 * // [{ header: 1, rows: [1] }]
 * ```
 */
export function htmlTables(html: string): { header: number; rows: number[] }[] {
  return [...html.matchAll(/<table>([\s\S]*?)<\/table>/g)].map(([, body]) => {
    const rows = [...body.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map(([, row]) =>
      (row.match(/<t[hd][ >]/g) ?? []).length
    );
    return { header: rows[0], rows: rows.slice(1) };
  });
}

/**
 * The text GitHub's post-processing reads: tags dropped, `code` and `a` contents left out (GitHub
 * skips them), entities decoded.
 *
 * @example
 * ```ts
 * import { renderedText } from "./markdown_assertions.ts";
 * renderedText("<p>a &amp; <code>@x</code></p>"); // "a &  "
 * ```
 */
export function renderedText(html: string): string {
  return html
    .replace(/<(code|a)\b[^>]*>[\s\S]*?<\/\1>/g, " ")
    .replace(/<[^>]*>/g, " ")
    .replace(/&#(\d+);/g, (_, n) => String.fromCodePoint(Number(n)))
    .replace(/&#x([0-9a-f]+);/gi, (_, n) => String.fromCodePoint(parseInt(n, 16)))
    .replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, "<").replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
}

/**
 * What in `markdown` would not render inert on GitHub, one sentence each (none: `[]`). Links are
 * allowed only to `hrefs`.
 *
 * @example
 * ```ts
 * import { markdownProblems } from "./markdown_assertions.ts";
 * markdownProblems("hi @octocat"); // ["a mention in the rendered text: ..."]
 * ```
 */
export function markdownProblems(markdown: string, hrefs: readonly string[] = []): string[] {
  const html = gfmToHtml(markdown);
  const problems: string[] = [];
  for (const [tag, name] of html.matchAll(/<\/?([a-z][a-z0-9]*)\b[^>]*>/gi)) {
    if (!REPORT_TAGS.has(name.toLowerCase())) problems.push(`a <${name}> tag: ${tag}`);
    const href = /^<a\b[^>]*\bhref="([^"]*)"/i.exec(tag)?.[1];
    if (name === "a" && tag.startsWith("<a") && !hrefs.includes(href ?? "")) {
      problems.push(`a link the report did not make: ${tag}`);
    }
  }
  htmlTables(html).forEach((t, i) => {
    t.rows.forEach((cells, r) => {
      if (cells !== t.header) {
        problems.push(`table ${i + 1}, row ${r + 1}: ${cells} cells, the header has ${t.header}`);
      }
    });
  });
  const text = renderedText(html);
  for (const [what, pattern] of GITHUB_LINKED_TEXT) {
    const found = pattern.exec(text);
    if (found) {
      const at = found.index;
      problems.push(`${what} in the rendered text: ${text.slice(Math.max(0, at - 20), at + 30)}`);
    }
  }
  return problems;
}
