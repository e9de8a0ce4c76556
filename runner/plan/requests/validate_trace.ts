/**
 * Validates `trace`: `true` (every request carries a W3C `traceparent`), `false`, or
 * `{ tracestate: "vendor=value" }` (a `tracestate` too). The `tracestate` is checked against the
 * W3C list-member grammar, loosely: `key=value` members split by commas, at most 32 of them, at
 * most 512 characters, no key twice.
 *
 * @module
 */
import type { YamlNode } from "../read/mod.ts";
import { MAX_TRACESTATE_CHARS, type PlanReader, readSection } from "../read/mod.ts";
import type { PlanTrace } from "../types.ts";

/** The most members a `tracestate` carries (W3C trace context). */
export const MAX_TRACESTATE_MEMBERS = 32;

/** A simple key, or a multi-tenant one (`tenant@system`). */
const KEY = /^(?:[a-z][a-z0-9_\-*/]{0,255}|[a-z0-9][a-z0-9_\-*/]{0,240}@[a-z][a-z0-9_\-*/]{0,13})$/;
/** Printable ASCII but `,` and `=`; spaces inside, not at its end. */
const VALUE = /^[\x20-\x2b\x2d-\x3c\x3e-\x7e]{0,255}[\x21-\x2b\x2d-\x3c\x3e-\x7e]$/;
const HINT = "write comma-separated `key=value` members, e.g. `vendor=value,other=1`";

/**
 * Reads `trace:`; undefined when it is false or wrong (reported).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseYaml, PlanReader } from "../read/mod.ts";
 * import { readTrace } from "./validate_trace.ts";
 * const reader = new PlanReader("p.yaml");
 * const root = parseYaml("trace: { tracestate: vendor=1 }").root!;
 * const node = root.kind === "map" ? root.entries[0].value : root;
 * assert.deepEqual(readTrace(reader, node), { tracestate: "vendor=1" });
 * assert.equal(reader.issues.length, 0);
 * ```
 */
export function readTrace(reader: PlanReader, node: YamlNode): PlanTrace | undefined {
  if (node.kind !== "map") {
    const on = reader.boolean(node, "trace");
    if (on === undefined) return undefined;
    return on ? {} : undefined;
  }
  const s = readSection(reader, node, "trace", "trace");
  if (s === undefined) return undefined;
  const tracestate = s.get<string>("tracestate");
  if (tracestate === undefined) return {};
  const problem = tracestateProblem(tracestate);
  if (problem !== undefined) {
    reader.error(s.at("tracestate")!, "trace.tracestate", problem, HINT);
    return undefined;
  }
  return { tracestate };
}

/**
 * What is wrong with a `tracestate`, or undefined when it is one.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { tracestateProblem } from "./validate_trace.ts";
 * assert.equal(tracestateProblem("vendor=value,acme@sys=x y"), undefined);
 * assert.match(tracestateProblem("Vendor=1")!, /key/);
 * ```
 */
export function tracestateProblem(text: string): string | undefined {
  if (text.length > MAX_TRACESTATE_CHARS) {
    return `a tracestate is at most ${MAX_TRACESTATE_CHARS} characters, not ${text.length}`;
  }
  const members = text.split(",").map((m) => m.replace(/^[ \t]+|[ \t]+$/g, ""));
  if (members.length > MAX_TRACESTATE_MEMBERS) {
    return `a tracestate has at most ${MAX_TRACESTATE_MEMBERS} members, not ${members.length}`;
  }
  const keys = new Set<string>();
  for (const member of members) {
    const eq = member.indexOf("=");
    if (eq < 0) return `tracestate member \`${member}\` is not \`key=value\``;
    const key = member.slice(0, eq);
    const value = member.slice(eq + 1);
    if (!KEY.test(key)) {
      return `tracestate key \`${key}\` is not a W3C key (lower-case letters, digits, _ - * /, optionally tenant@system)`;
    }
    if (!VALUE.test(value)) {
      return `tracestate value \`${value}\` of \`${key}\` is empty or holds a character a value may not (\`,\`, \`=\`, a space at its end)`;
    }
    if (keys.has(key)) return `tracestate key \`${key}\` is given twice`;
    keys.add(key);
  }
  return undefined;
}
