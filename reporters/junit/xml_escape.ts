/**
 * Text made safe for XML 1.0 documents: markup characters escaped (as for HTML), and the characters
 * XML 1.0 forbids (most C0 controls, U+FFFE, U+FFFF, unpaired surrogates) replaced by U+FFFD, so a
 * plan name or message can never break the document a CI reader parses.
 *
 * @module
 */
import { escapeHtml } from "../page/mod.ts";

const ILLEGAL =
  // deno-lint-ignore no-control-regex -- the control characters XML 1.0 forbids are the point
  /[\x00-\x08\x0B\x0C\x0E-\x1F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * Escapes text for element content: `& < > " '` as references, forbidden characters as U+FFFD.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { xmlText } from "./xml_escape.ts";
 * assert.equal(xmlText('a < b & "c"\u0007'), "a &lt; b &amp; &quot;c&quot;\uFFFD");
 * ```
 */
export function xmlText(text: string): string {
  return escapeHtml(text.replace(ILLEGAL, "\uFFFD"));
}

/**
 * Escapes text for a quoted attribute value: as {@linkcode xmlText}, and tab, newline and carriage
 * return as character references, which survive a parser's attribute normalization.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { xmlAttr } from "./xml_escape.ts";
 * assert.equal(xmlAttr("line 1\nline 2"), "line 1&#10;line 2");
 * ```
 */
export function xmlAttr(text: string): string {
  return xmlText(text).replace(/[\t\n\r]/g, (c) => `&#${c.charCodeAt(0)};`);
}
