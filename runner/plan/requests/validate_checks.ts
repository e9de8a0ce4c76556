/**
 * Validates `check:` on a request or a journey step (docs/decisions/journeys.md): `status` (as
 * `expect`), `header: { name: regex }`, `json: { /pointer: value | exists | absent | { lt, gt,
 * eq, matches } }`, `body: { contains | matches }` and `max_bytes`. Each check is named by its
 * own text (`/state == open`), which reports and `check_rate("…")` use. Regular expressions are
 * compiled here, so a bad one is a located error before any run.
 *
 * @module
 */
import type { YamlNode } from "../read/mod.ts";
import { join, type PlanReader, sourceText } from "../read/mod.ts";
import type { JsonTest, PlanCheck } from "../types.ts";
import { readExpect } from "./validate_expect.ts";
import { jsonPointerProblem } from "./validate_steps.ts";

const CHECK_KEYS = ["status", "header", "json", "body", "max_bytes"] as const;
const CHECK_SYNONYMS = {
  expect: "status",
  code: "status",
  headers: "header",
  jsonpath: "json",
  pointer: "json",
  contains: "body",
  size: "max_bytes",
  max_size: "max_bytes",
  max_body: "max_bytes",
};
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * Reads a `check` mapping into its checks, in the plan's order; every problem is reported.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseYaml, PlanReader } from "../read/mod.ts";
 * import { readChecks } from "./validate_checks.ts";
 * const node = parseYaml("{ status: 201, json: { /state: open } }").root!;
 * const checks = readChecks(new PlanReader("p.yaml"), node, "requests[0].check");
 * assert.deepEqual(checks.map((c) => c.text), ["status 201", "/state == open"]);
 * ```
 */
export function readChecks(reader: PlanReader, node: YamlNode, path: string): PlanCheck[] {
  const f = reader.fields(node, path, CHECK_KEYS, CHECK_SYNONYMS);
  if (f === undefined) return [];
  if (node.kind === "map" && node.entries.length === 0) {
    reader.error(node, path, "`check` is empty", "e.g. `check: { status: 201 }`");
  }
  const out: PlanCheck[] = [];
  for (const [key, entry] of f) {
    const at = join(path, key);
    const v = entry.value;
    const line = entry.keyPos.line;
    if (key === "status") {
      const expect = readExpect(reader, v, at);
      if (expect) out.push({ kind: "status", expect, text: `status ${statusText(v)}`, line });
    } else if (key === "max_bytes") {
      const bytes = reader.number(v, at, { integer: true, min: 0, max: 2 ** 31 - 1 });
      if (bytes !== undefined) {
        out.push({ kind: "max_bytes", bytes, text: `max_bytes ${bytes}`, line });
      }
    } else if (key === "header") out.push(...readHeaderChecks(reader, v, at));
    else if (key === "json") out.push(...readJsonChecks(reader, v, at));
    else out.push(...readBodyChecks(reader, v, at));
  }
  return out;
}

function readHeaderChecks(reader: PlanReader, node: YamlNode, path: string): PlanCheck[] {
  if (node.kind !== "map" || node.entries.length === 0) {
    reader.error(
      node,
      path,
      "`header` maps header names to patterns",
      "e.g. `{ content-type: json }`",
    );
    return [];
  }
  return node.entries.flatMap((e): PlanCheck[] => {
    const at = join(path, e.key);
    if (!HEADER_NAME.test(e.key)) {
      reader.errorAt(e.keyPos, e.key.length, at, `\`${e.key}\` is not a header name`);
      return [];
    }
    const pattern = readPattern(reader, e.value, at);
    if (pattern === undefined) return [];
    const name = e.key.toLowerCase();
    return [{ kind: "header", name, pattern, text: `${name} ~ ${pattern}`, line: e.keyPos.line }];
  });
}

function readBodyChecks(reader: PlanReader, node: YamlNode, path: string): PlanCheck[] {
  const f = reader.fields(node, path, ["contains", "matches"], {
    includes: "contains",
    regex: "matches",
    match: "matches",
  });
  if (f === undefined) return [];
  if (node.kind === "map" && node.entries.length === 0) {
    reader.error(node, path, "`body` is empty", "e.g. `body: { contains: open }`");
  }
  const out: PlanCheck[] = [];
  for (const [key, e] of f) {
    const at = join(path, key);
    const line = e.keyPos.line;
    if (key === "contains") {
      const text = reader.string(e.value, at, true);
      if (text === "") {
        reader.error(e.value, at, "`contains` is empty", "name the text the body holds");
      } else if (text !== undefined) {
        out.push({ kind: "body_contains", contains: text, text: `body contains ${text}`, line });
      }
    } else {
      const pattern = readPattern(reader, e.value, at);
      if (pattern !== undefined) {
        out.push({ kind: "body_matches", pattern, text: `body ~ ${pattern}`, line });
      }
    }
  }
  return out;
}

function readJsonChecks(reader: PlanReader, node: YamlNode, path: string): PlanCheck[] {
  if (node.kind !== "map" || node.entries.length === 0) {
    reader.error(
      node,
      path,
      "`json` maps JSON pointers to what is there",
      "e.g. `{ /state: open, /id: exists }`",
    );
    return [];
  }
  return node.entries.flatMap((e): PlanCheck[] => {
    const at = join(path, e.key);
    const wrong = jsonPointerProblem(e.key);
    if (wrong) {
      reader.errorAt(e.keyPos, e.key.length, at, `\`${e.key}\` is not a JSON pointer`, wrong);
      return [];
    }
    const line = e.keyPos.line;
    return readJsonTests(reader, e.value, at).map(([test, said]) => ({
      kind: "json" as const,
      pointer: e.key,
      test,
      text: `${e.key} ${said}`,
      line,
    }));
  });
}

/** What a pointer's value must be: each test with the words that name it. */
function readJsonTests(reader: PlanReader, node: YamlNode, path: string): [JsonTest, string][] {
  if (node.kind === "scalar") {
    if (node.value === "exists" && !node.quoted) return [[{ op: "exists" }, "exists"]];
    if (node.value === "absent" && !node.quoted) return [[{ op: "absent" }, "absent"]];
    return [[{ op: "eq", json: JSON.stringify(node.value) }, `== ${sourceText(node)}`]];
  }
  const f = reader.fields(node, path, ["eq", "lt", "gt", "matches"], {
    equals: "eq",
    "==": "eq",
    "<": "lt",
    ">": "gt",
    less_than: "lt",
    greater_than: "gt",
    regex: "matches",
  });
  if (f === undefined) return [];
  if (node.kind === "map" && node.entries.length === 0) {
    reader.error(node, path, "the comparison is empty", "e.g. `{ lt: 100 }`");
  }
  const out: [JsonTest, string][] = [];
  for (const [key, e] of f) {
    const at = join(path, key);
    if (key === "eq") {
      if (e.value.kind !== "scalar") {
        reader.error(e.value, at, "`eq` compares with one value", "e.g. `eq: open`");
      } else {out.push([
          { op: "eq", json: JSON.stringify(e.value.value) },
          `== ${sourceText(e.value)}`,
        ]);}
    } else if (key === "matches") {
      const pattern = readPattern(reader, e.value, at);
      if (pattern !== undefined) out.push([{ op: "matches", pattern }, `~ ${pattern}`]);
    } else {
      const value = reader.number(e.value, at);
      if (value !== undefined) {
        out.push([{ op: key as "lt" | "gt", value }, `${key === "lt" ? "<" : ">"} ${value}`]);
      }
    }
  }
  return out;
}

/**
 * A regular expression as written, compiled to be sure it is one; `groups` asks for exactly that
 * many capture groups (a capture's `regex` takes one).
 */
export function readPattern(
  reader: PlanReader,
  node: YamlNode,
  path: string,
  groups?: number,
): string | undefined {
  const pattern = reader.string(node, path, true);
  if (pattern === undefined) return undefined;
  if (pattern === "") {
    reader.error(
      node,
      path,
      "the pattern is empty",
      "write the text or regular expression to find",
    );
    return undefined;
  }
  let found: number;
  try {
    // An alternative that matches the empty string shows how many groups the pattern has.
    new RegExp(pattern);
    found = new RegExp(`${pattern}|`).exec("")!.length - 1;
  } catch (e) {
    const why = e instanceof Error ? e.message.replace(/^Invalid regular expression: /, "") : "";
    reader.error(
      node,
      path,
      `\`${pattern}\` is not a regular expression (${why})`,
      "escape `(`, `[`, `*`, `+`, `?` and `\\` with `\\` to match them as text",
    );
    return undefined;
  }
  if (groups !== undefined && found !== groups) {
    reader.error(
      node,
      path,
      `\`${pattern}\` has ${found} capture groups; a capture takes the text of exactly ${groups}`,
      "put `( )` around the part to capture, and write `(?: )` for any other group",
    );
    return undefined;
  }
  return pattern;
}

/** A `status` value as written: `201`, `2xx`, `[200, 201]`. */
function statusText(node: YamlNode): string {
  return node.kind === "seq" ? `[${node.items.map(statusText).join(", ")}]` : sourceText(node);
}
