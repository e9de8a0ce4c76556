/**
 * Plain-text tables for a terminal: columns aligned on the width text takes on screen (wide
 * CJK and emoji count two, combining marks none), with colour applied outside the padding, and
 * plan-controlled text made printable so it cannot move the cursor or inject escape sequences.
 *
 * @module
 */
import { columns } from "./_string_width.ts";

/** A cell: its text, and a style (e.g. an ANSI colour) applied to the text but not its padding. */
export type TextCell = string | { text: string; style: (text: string) => string };

/** Column alignment of {@linkcode textTable}. */
export type TextAlign = "left" | "right";

/**
 * Lines of a table: cells padded to their column's display width, separated by two spaces,
 * trailing spaces removed.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { textTable } from "./text_table.ts";
 * assert.deepEqual(
 *   textTable([["stage", "p99"], ["main", "1.5ms"]], ["left", "right"]),
 *   ["stage    p99", "main   1.5ms"],
 * );
 * ```
 */
export function textTable(
  rows: ReadonlyArray<readonly TextCell[]>,
  align: readonly TextAlign[],
): string[] {
  const text = (
    c: TextCell | undefined,
  ) => (c === undefined ? "" : typeof c === "string" ? c : c.text);
  const columns = Math.max(0, ...rows.map((r) => r.length));
  const widths = Array.from(
    { length: columns },
    (_, i) => Math.max(0, ...rows.map((r) => displayWidth(text(r[i])))),
  );
  return rows.map((row) =>
    widths.map((width, i) => {
      const cell = row[i];
      const padding = " ".repeat(width - displayWidth(text(cell)));
      const shown = cell === undefined || typeof cell === "string"
        ? text(cell)
        : cell.style(cell.text);
      return align[i] === "right" ? padding + shown : shown + padding;
    }).join("  ").replace(/ +$/, "")
  );
}

/**
 * The number of terminal columns text takes: an emoji sequence takes two (👩‍👩‍👧 is one glyph),
 * East Asian wide characters two, combining marks and zero-width characters none (the
 * `string-width` package, reporters/_string_width.ts).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { displayWidth } from "./text_table.ts";
 * assert.equal(displayWidth("GET /注文"), 9);
 * ```
 */
export function displayWidth(text: string): number {
  return columns(text);
}
