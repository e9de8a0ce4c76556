/**
 * Validates the plan's `vars`: values drawn afresh for each request, each a pure function of the
 * plan's seed and the request's index (runner/schedule/draw_values.ts draws them).
 *
 * @module
 */
import type { YamlEntry, YamlNode } from "../read/mod.ts";
import { join, type PlanReader } from "../read/mod.ts";
import type { PlanVar, PlanVarSpec } from "../types.ts";

/** A var or data source name: what `{{name}}` can refer to. */
export const TEMPLATE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** The most values a `choice` may list. */
export const MAX_CHOICES = 10_000;
const KINDS = ["uuid", "counter", "int", "choice"];

/**
 * Whether a `data` or `vars` entry's key can be named in a template; else a located error.
 */
export function templateName(
  reader: PlanReader,
  entry: YamlEntry,
  path: string,
  what: string,
  example: string,
): boolean {
  if (TEMPLATE_NAME.test(entry.key)) return true;
  reader.errorAt(
    entry.keyPos,
    entry.key.length,
    path,
    `\`${entry.key}\` is not a ${what} name`,
    `use letters, digits and \`_\`, starting with a letter (\`${example}\`)`,
  );
  return false;
}

/**
 * Reads `vars`: `name: uuid | counter | { int: [min, max] } | { choice: [a, b, ...] }`.
 */
export function readVars(reader: PlanReader, node: YamlNode): PlanVar[] {
  if (node.kind !== "map") {
    reader.error(
      node,
      "vars",
      "`vars` must be a mapping of names to what they draw",
      "e.g. `vars: { order_id: uuid, qty: { int: [1, 20] } }`",
    );
    return [];
  }
  const out: PlanVar[] = [];
  for (const entry of node.entries) {
    const path = join("vars", entry.key);
    if (!templateName(reader, entry, path, "var", "order_id")) continue;
    const spec = readSpec(reader, entry.value, path);
    if (spec) out.push({ name: entry.key, spec, text: specText(spec), line: entry.keyPos.line });
  }
  return out;
}

function readSpec(reader: PlanReader, node: YamlNode, path: string): PlanVarSpec | undefined {
  const hint = "write `uuid`, `counter`, `{ int: [1, 20] }` or `{ choice: [eu, us] }`";
  if (node.kind === "scalar") {
    if (node.value === "uuid" || node.value === "counter") return { kind: node.value };
    reader.error(node, path, `\`${node.value}\` is not a kind of var`, hint);
    return undefined;
  }
  if (node.kind !== "map" || node.entries.length !== 1) {
    reader.error(node, path, "a var is one of `uuid`, `counter`, `int` or `choice`", hint);
    return undefined;
  }
  const [{ key, keyPos, value }] = node.entries;
  const at = join(path, key);
  if (key === "int") return readInt(reader, value, at);
  if (key === "choice") return readChoice(reader, value, at);
  reader.errorAt(
    keyPos,
    key.length,
    at,
    `\`${key}\` is not a kind of var`,
    KINDS.includes(key) ? `write \`${key}\` alone, without a value` : hint,
  );
  return undefined;
}

function readInt(reader: PlanReader, node: YamlNode, path: string): PlanVarSpec | undefined {
  const items = node.kind === "seq" ? node.items : undefined;
  if (items === undefined || items.length !== 2) {
    reader.error(
      node,
      path,
      "`int` takes `[min, max]`",
      "e.g. `{ int: [1, 20] }` (both inclusive)",
    );
    return undefined;
  }
  const safe = { integer: true, min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER };
  const min = reader.number(items[0], join(path, 0), safe);
  const max = reader.number(items[1], join(path, 1), safe);
  if (min === undefined || max === undefined) return undefined;
  if (min > max) {
    reader.error(
      node,
      path,
      `\`int\` of [${min}, ${max}]: min is above max`,
      `write [${max}, ${min}]`,
    );
    return undefined;
  }
  return { kind: "int", min, max };
}

function readChoice(reader: PlanReader, node: YamlNode, path: string): PlanVarSpec | undefined {
  if (node.kind !== "seq" || node.items.length === 0) {
    reader.error(node, path, "`choice` takes a list of values", "e.g. `{ choice: [eu, us, ap] }`");
    return undefined;
  }
  if (node.items.length > MAX_CHOICES) {
    reader.error(
      node,
      path,
      `\`choice\` lists ${node.items.length} values; at most ${MAX_CHOICES}`,
      "put longer lists in a data file (`data`)",
    );
    return undefined;
  }
  const values: Array<string | number | boolean> = [];
  node.items.forEach((item, i) => {
    if (item.kind === "scalar" && item.value !== null) values.push(item.value);
    else reader.error(item, join(path, i), "a choice is text, a number or true/false");
  });
  return values.length === node.items.length ? { kind: "choice", values } : undefined;
}

/**
 * A var spec in one line, as reports show it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { specText } from "./validate_vars.ts";
 * assert.equal(specText({ kind: "int", min: 1, max: 20 }), "int [1, 20]");
 * ```
 */
export function specText(spec: PlanVarSpec): string {
  if (spec.kind === "int") return `int [${spec.min}, ${spec.max}]`;
  if (spec.kind === "choice") {
    const shown = spec.values.slice(0, 8).map((v) => JSON.stringify(v)).join(", ");
    return `choice [${shown}${spec.values.length > 8 ? `, … ${spec.values.length} in all` : ""}]`;
  }
  return spec.kind;
}
