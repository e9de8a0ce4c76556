/**
 * A data column kept as one string and its offsets ({@linkcode ColumnValues}), and the value of
 * one row read back.
 *
 * @module
 */
import type { ColumnValues } from "../types.ts";

/**
 * Packs a column's values into one string.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { columnValues, valueAt } from "./column_values.ts";
 * const column = columnValues(["ann", "bob"]);
 * assert.equal(valueAt(column, 1), "bob");
 * ```
 */
export function columnValues(values: readonly string[]): ColumnValues {
  const starts = new Uint32Array(values.length + 1);
  let at = 0;
  values.forEach((v, r) => {
    starts[r] = at;
    at += v.length;
  });
  starts[values.length] = at;
  return { text: values.join(""), starts };
}

/**
 * Row `r`'s value.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { columnValues, valueAt } from "./column_values.ts";
 * assert.equal(valueAt(columnValues(["a", "bc"]), 1), "bc");
 * ```
 */
export function valueAt(column: ColumnValues, r: number): string {
  return column.text.slice(column.starts[r], column.starts[r + 1]);
}

/**
 * The first row whose value matches `pattern`, or -1.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { columnValues, firstRowMatching } from "./column_values.ts";
 * assert.equal(firstRowMatching(columnValues(["a", "b\nc"]), /\n/), 1);
 * ```
 */
export function firstRowMatching(column: ColumnValues, pattern: RegExp): number {
  const flags = pattern.flags.includes("g") ? pattern.flags : pattern.flags + "g";
  const match = new RegExp(pattern.source, flags).exec(column.text);
  if (match === null) return -1;
  // The row whose span holds the match: the last start at or before it.
  let lo = 0, hi = column.starts.length - 2;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (column.starts[mid] <= match.index) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
