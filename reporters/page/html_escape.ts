/**
 * Escaping for the HTML report: text into elements and attributes, JSON and script text into
 * `<script>` elements. Everything the plan wrote (names, URLs, headers, messages) goes through it.
 *
 * @module
 */

const HTML_ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/**
 * Escapes text for an HTML element or a quoted attribute value.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { escapeHtml } from "./html_escape.ts";
 * assert.equal(escapeHtml('<img src=x onerror="alert(1)">'), "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;");
 * ```
 */
export function escapeHtml(text: string | number): string {
  return String(text).replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]);
}

/**
 * JSON for a `<script type="application/json">` element: `<`, `>` and `&` become `\u003c` …, so
 * no `</script>` or `<!--` can appear, and U+2028/U+2029 are escaped too (older JavaScript reads
 * them as line ends). `JSON.parse` of the element's text gives the value back.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { jsonForScript } from "./html_escape.ts";
 * assert.equal(jsonForScript({ name: "</script>" }), '{"name":"\\u003c/script\\u003e"}');
 * ```
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/**
 * Makes script text safe inside `<script>…</script>`: `</script` would end the element and
 * `<!--` switches the HTML parser into a mode where `</script>` may not end it. Both are rewritten
 * to forms JavaScript reads the same inside strings, regular expressions and comments.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { safeInlineScript } from "./html_escape.ts";
 * assert.equal(safeInlineScript('s = "</script>"'), 's = "<\\/script>"');
 * ```
 */
export function safeInlineScript(text: string): string {
  return text.replace(/<\/(script)/gi, "<\\/$1").replace(/<!--/g, "<\\u0021--");
}
