/**
 * Reading a `Result` in a test: the value, failing the test with the problems when there is none.
 *
 * @module
 */
import assert from "node:assert/strict";
import { problemText, type Result } from "../../runner/model/result.ts";

/**
 * The value of `result`, asserting it has one.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ok } from "../../runner/model/result.ts";
 * import { valueOf } from "./result_value.ts";
 * assert.equal(valueOf(ok(3)), 3);
 * ```
 */
export function valueOf<T>(result: Result<T>): T {
  assert.ok(result.ok, result.ok ? "" : result.problems.map(problemText).join("\n"));
  return result.value;
}
