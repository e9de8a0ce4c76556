/**
 * Validates the statuses a request expects.
 *
 * @module
 */
import type { YamlNode } from "../read/mod.ts";
import type { PlanReader } from "../read/mod.ts";
import type { StatusExpectation } from "../types.ts";

/**
 * Validates a request's `expect`: status codes (`200`, `[200, 204]`) and classes (`2xx`),
 * reporting problems on `reader`.
 */
export function readExpect(
  reader: PlanReader,
  node: YamlNode,
  path: string,
): StatusExpectation | undefined {
  const items = node.kind === "seq" ? node.items : [node];
  const out: StatusExpectation = { codes: [], classes: [] };
  for (const item of items) {
    const v = item.kind === "scalar" ? item.value : undefined;
    if (typeof v === "number" && Number.isInteger(v) && v >= 100 && v <= 599) out.codes.push(v);
    else if (typeof v === "string" && /^[1-5]xx$/i.test(v)) out.classes.push(Number(v[0]));
    else {
      reader.error(
        item,
        path,
        "`expect` takes status codes (`200`, `[200, 204]`) or classes (`2xx`)",
      );
      return undefined;
    }
  }
  return out;
}

/**
 * Whether `status` counts as success under `expect`: the one rule, for measured requests and for
 * setup and teardown steps.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { statusExpected } from "./validate_expect.ts";
 * assert.equal(statusExpected({ codes: [404], classes: [2] }, 204), true);
 * ```
 */
export function statusExpected(expect: StatusExpectation, status: number): boolean {
  return expect.codes.includes(status) || expect.classes.includes(Math.floor(status / 100));
}
