/**
 * The one rule for a status a request expects: read by the engine's thread, which loads it
 * without the plan's reader (runner/plan/runtime/mod.ts).
 *
 * @module
 */
import type { StatusExpectation } from "../types.ts";

/**
 * Whether `status` counts as success under `expect`: the one rule, for measured requests and for
 * setup and teardown steps.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { statusExpected } from "./status_expected.ts";
 * assert.equal(statusExpected({ codes: [404], classes: [2] }, 204), true);
 * ```
 */
export function statusExpected(expect: StatusExpectation, status: number): boolean {
  return expect.codes.includes(status) || expect.classes.includes(Math.floor(status / 100));
}
