import assert from "node:assert/strict";
import {
  columnValues,
  firstRowMatching,
  valueAt,
} from "../../../../runner/plan/runtime/column_values.ts";

Deno.test("a packed column gives back every row, empty ones and multi-byte text included", () => {
  const rows = ["ann", "", "bob, jr", "zoë", "😀x", ""];
  const column = columnValues(rows);
  assert.deepEqual(rows.map((_, r) => valueAt(column, r)), rows);
  assert.equal(column.starts.length, rows.length + 1);
});

Deno.test("firstRowMatching() names the row a match falls in, or -1", () => {
  const column = columnValues(["a", "", "b\nc", "d\r"]);
  assert.equal(firstRowMatching(column, /[\r\n]/), 2);
  assert.equal(firstRowMatching(columnValues(["x", "y"]), /\n/), -1);
  assert.equal(firstRowMatching(columnValues(["\n"]), /\n/), 0);
});
