/**
 * Plain-text tables for a terminal: columns aligned on the width text takes on screen (wide
 * CJK and emoji count two, combining marks none), with colour applied outside the padding, and
 * plan-controlled text made printable so it cannot move the cursor or inject escape sequences.
 *
 * @module
 */

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
 * import { textTable } from "./text_table.ts";
 * textTable([["stage", "p99"], ["main", "1.5ms"]], ["left", "right"]);
 * // ["stage    p99", "main   1.5ms"]
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
 * The number of terminal columns text takes: East Asian wide characters and emoji take two,
 * combining marks and zero-width characters none.
 *
 * @example
 * ```ts
 * import { displayWidth } from "./text_table.ts";
 * displayWidth("GET /注文"); // 9
 * ```
 */
export function displayWidth(text: string): number {
  let width = 0;
  for (const c of text) {
    const code = c.codePointAt(0)!;
    if (ZERO_WIDTH.some(([lo, hi]) => code >= lo && code <= hi)) continue;
    width += WIDE.some(([lo, hi]) => code >= lo && code <= hi) ? 2 : 1;
  }
  return width;
}

const ZERO_WIDTH: ReadonlyArray<readonly [number, number]> = [
  [0x0300, 0x036f],
  [0x200b, 0x200f],
  [0xfe00, 0xfe0f],
];

const WIDE: ReadonlyArray<readonly [number, number]> = [
  [0x1100, 0x115f],
  [0x2e80, 0x303e],
  [0x3041, 0x33ff],
  [0x3400, 0x4dbf],
  [0x4e00, 0x9fff],
  [0xa000, 0xa4cf],
  [0xac00, 0xd7a3],
  [0xf900, 0xfaff],
  [0xfe30, 0xfe4f],
  [0xff00, 0xff60],
  [0xffe0, 0xffe6],
  [0x1f300, 0x1f64f],
  [0x1f680, 0x1f6ff],
  [0x1f900, 0x1f9ff],
  [0x20000, 0x3fffd],
];
