/**
 * Plain HTML tables for the report (they read without JavaScript). Text cells are escaped; a
 * cell built as HTML says so with `{ html }`.
 *
 * @module
 */
import { escapeHtml } from "./html_escape.ts";

/** A table cell: text (escaped), or HTML the caller built from escaped parts. */
export type Cell = string | number | { html: string; className?: string };

/**
 * Renders a table with a header row; `numeric` columns are right-aligned.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { htmlTable } from "./html_table.ts";
 * const html = htmlTable(["stage", "p99"], [["main", "1.5ms"]], { numeric: [1] });
 * assert.ok(html.startsWith('<div class="table-wrap"><table><thead><tr><th>stage</th><th class="num">p99</th>'));
 * ```
 */
export function htmlTable(
  headers: readonly Cell[],
  rows: readonly (readonly Cell[])[],
  options: { numeric?: readonly number[]; className?: string } = {},
): string {
  const numeric = new Set(options.numeric ?? []);
  const row = (cells: readonly Cell[], tag: "th" | "td") =>
    `<tr>${cells.map((c, i) => cell(c, tag, numeric.has(i))).join("")}</tr>`;
  const cls = options.className ? ` class="${escapeHtml(options.className)}"` : "";
  return `<div class="table-wrap"><table${cls}><thead>${row(headers, "th")}</thead><tbody>${
    rows.map((r) => row(r, "td")).join("\n")
  }</tbody></table></div>`;
}

/**
 * Renders name–value pairs as a two-column table (for settings and fingerprints).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { keyValueTable } from "./html_table.ts";
 * assert.ok(keyValueTable([["cores", 4]]).startsWith('<div class="table-wrap"><table class="kv">'));
 * ```
 */
export function keyValueTable(pairs: ReadonlyArray<readonly [string, Cell]>): string {
  return `<div class="table-wrap"><table class="kv"><tbody>${
    pairs.map(([k, v]) => `<tr>${cell(k, "th", false)}${cell(v, "td", false)}</tr>`).join("\n")
  }</tbody></table></div>`;
}

function cell(c: Cell, tag: "th" | "td", numeric: boolean): string {
  const classes = [numeric ? "num" : "", typeof c === "object" ? c.className ?? "" : ""]
    .filter(Boolean).join(" ");
  const attr = classes ? ` class="${escapeHtml(classes)}"` : "";
  const body = typeof c === "object" ? c.html : escapeHtml(c);
  return `<${tag}${attr}>${body}</${tag}>`;
}
