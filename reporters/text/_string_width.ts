/**
 * The one file that imports `string-width` (sindresorhus; Unicode grapheme clusters, East Asian
 * widths and emoji sequences, kept up with Unicode releases): how many terminal columns a string
 * takes. Private to reporters/.
 *
 * @module
 */
import stringWidth from "npm:string-width@9.0.0";

/**
 * Terminal columns `text` takes: an emoji sequence such as 👩‍👩‍👧 is one wide glyph (2), East Asian
 * wide characters 2, combining marks and zero-width characters 0.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { columns } from "./_string_width.ts";
 * assert.equal(columns("GET /注文"), 9);
 * ```
 */
export function columns(text: string): number {
  return stringWidth(text);
}
