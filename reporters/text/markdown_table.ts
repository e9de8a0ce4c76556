/**
 * GitHub-flavoured Markdown building blocks that plan-controlled text cannot break: tables with
 * the same number of cells on every row (their cells escaped by `markdownText`, in
 * markdown_escape.ts), and link destinations.
 *
 * @module
 */

/** Column alignment of {@linkcode markdownTable}. */
export type MarkdownAlign = "left" | "right";

/**
 * A table as lines: header, separator, rows. Cells must already be escaped (`markdownText`);
 * every row must have as many cells as the header (an error otherwise: a short row would shift
 * the columns).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { markdownTable } from "./markdown_table.ts";
 * assert.deepEqual(
 *   markdownTable(["gate", "value"], ["left", "right"], [["p99", "1ms"]]),
 *   ["| gate | value |", "| --- | ---: |", "| p99 | 1ms |"],
 * );
 * ```
 */
export function markdownTable(
  header: readonly string[],
  align: readonly MarkdownAlign[],
  rows: ReadonlyArray<readonly string[]>,
): string[] {
  for (const row of rows) {
    if (row.length !== header.length) {
      throw new Error(`a table row has ${row.length} cells; the header has ${header.length}`);
    }
  }
  const line = (cells: readonly string[]) => `| ${cells.join(" | ")} |`;
  return [
    line(header),
    line(header.map((_, i) => (align[i] === "right" ? "---:" : "---"))),
    ...rows.map(line),
  ];
}

/**
 * A link destination made safe for `[text](url)`: spaces, brackets, quotes and line breaks
 * percent-encoded.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { markdownUrl } from "./markdown_table.ts";
 * assert.equal(markdownUrl("runs/a b (1)/report.html"), "runs/a%20b%20%281%29/report.html");
 * ```
 */
export function markdownUrl(url: string): string {
  return url.replace(
    /[\s()<>"'`\\[\]]/g,
    (c) =>
      c.charCodeAt(0) < 0x80
        ? `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}`
        : encodeURIComponent(c),
  );
}
