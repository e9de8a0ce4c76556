import assert from "node:assert/strict";
import { median } from "../../../../runner/result/read/median.ts";

Deno.test("median() of odd and even counts", () => {
  assert.equal(median([3, 1, 2]), 2);
  assert.equal(median([3, 1, 2, 10]), 2.5);
});
