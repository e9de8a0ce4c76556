/**
 * A gRPC call's `message:` checked against its request type, every problem at its line and column
 * with a hint: a key of no field (did-you-mean over field and JSON names), a value of the wrong
 * kind (text in an int32, a float in an integer, text where a message goes), enum names
 * (did-you-mean), lists for repeated fields and mappings for map fields, nested messages, two
 * members of one oneof, integers out of range, bytes that are not base64, and the well-known
 * types' JSON forms. A value with a `{{…}}` template is accepted where what it draws can fit: in
 * a text field, and, as the whole value, in a number, bool or enum field.
 *
 * @module
 */
import { didYouMean, join, type PlanReader, type YamlNode } from "../read/mod.ts";
import type { FieldInfo, FieldValueKind } from "../../protobuf/mod.ts";
import type { Drawn, Draws } from "./message_draws.ts";
import {
  ANY_JSON,
  DURATION_PATTERN,
  type MessageShapes,
  TIMESTAMP_PATTERN,
  WRAPPERS,
} from "./proto_json.ts";

/** Messages nested deeper than this are refused (a recursive type written without end). */
const MAX_DEPTH = 64;

const INT_RANGES: Readonly<Record<string, readonly [bigint, bigint]>> = {
  int32: [-(2n ** 31n), 2n ** 31n - 1n],
  sint32: [-(2n ** 31n), 2n ** 31n - 1n],
  sfixed32: [-(2n ** 31n), 2n ** 31n - 1n],
  uint32: [0n, 2n ** 32n - 1n],
  fixed32: [0n, 2n ** 32n - 1n],
  int64: [-(2n ** 63n), 2n ** 63n - 1n],
  sint64: [-(2n ** 63n), 2n ** 63n - 1n],
  sfixed64: [-(2n ** 63n), 2n ** 63n - 1n],
  uint64: [0n, 2n ** 64n - 1n],
  fixed64: [0n, 2n ** 64n - 1n],
};

/**
 * Reports every problem of `node`, a message of `type`, on `reader`; returns whether it has none.
 */
export function checkMessage(
  reader: PlanReader,
  shapes: MessageShapes,
  vars: Draws,
  node: YamlNode,
  path: string,
  type: string,
): boolean {
  const before = reader.issues.filter((i) => i.severity === "error").length;
  if (node.kind === "scalar" && node.value === null) return true;
  message(reader, shapes, vars, node, path, type, 0);
  return reader.issues.filter((i) => i.severity === "error").length === before;
}

function message(
  reader: PlanReader,
  shapes: MessageShapes,
  vars: Draws,
  node: YamlNode,
  path: string,
  type: string,
  depth: number,
): void {
  if (node.kind !== "map") {
    reader.error(node, path, `a ${type} message is a mapping of its fields`, describe(node));
    return;
  }
  if (depth > MAX_DEPTH) {
    reader.error(node, path, `messages nested deeper than ${MAX_DEPTH} levels`);
    return;
  }
  const fields = shapes.fields(type) ?? [];
  const seen = new Map<string, string>();
  const oneofs = new Map<string, string>();
  for (const e of node.entries) {
    const at = join(path, e.key);
    const f = fields.find((x) => x.name === e.key || x.jsonName === e.key);
    if (f === undefined) {
      const guess = didYouMean(e.key, fields.map((x) => x.name)) ??
        didYouMean(e.key, fields.map((x) => x.jsonName));
      const list = fields.map((x) => `\`${x.name}\``).join(", ") || "none";
      reader.errorAt(
        e.keyPos,
        e.key.length,
        at,
        `${type} has no field \`${e.key}\``,
        guess !== undefined ? `did you mean \`${guess}\`?` : `its fields: ${list}`,
      );
      continue;
    }
    if (seen.has(f.name)) {
      reader.errorAt(e.keyPos, e.key.length, at, `field \`${f.name}\` is given twice`);
      continue;
    }
    seen.set(f.name, e.key);
    const isNull = e.value.kind === "scalar" && e.value.value === null;
    if (f.oneof !== undefined && !isNull) {
      const other = oneofs.get(f.oneof);
      if (other !== undefined) {
        reader.errorAt(
          e.keyPos,
          e.key.length,
          at,
          `\`${e.key}\` and \`${other}\` are both of oneof \`${f.oneof}\``,
          "give one of them",
        );
      }
      oneofs.set(f.oneof, e.key);
    }
    field(reader, shapes, vars, e.value, at, f, depth);
  }
}

function field(
  reader: PlanReader,
  shapes: MessageShapes,
  vars: Draws,
  node: YamlNode,
  path: string,
  f: FieldInfo,
  depth: number,
): void {
  if (node.kind === "scalar" && node.value === null) return;
  if (f.mapKey !== undefined) {
    if (node.kind !== "map") {
      reader.error(node, path, `\`${f.name}\` is a map: write a mapping of keys to values`);
      return;
    }
    for (const e of node.entries) {
      const problem = mapKeyProblem(f.mapKey, e.key);
      if (problem !== undefined) {
        reader.errorAt(e.keyPos, e.key.length, join(path, e.key), problem);
      }
      single(reader, shapes, vars, e.value, join(path, e.key), f, depth);
    }
    return;
  }
  if (f.repeated) {
    if (node.kind !== "seq") {
      reader.error(node, path, `\`${f.name}\` is repeated: write a list`, "e.g. `[a, b]`");
      return;
    }
    node.items.forEach((item, i) => single(reader, shapes, vars, item, join(path, i), f, depth));
    return;
  }
  single(reader, shapes, vars, node, path, f, depth);
}

function single(
  reader: PlanReader,
  shapes: MessageShapes,
  vars: Draws,
  node: YamlNode,
  path: string,
  f: FieldInfo,
  depth: number,
): void {
  const v = f.value;
  if (v.kind === "message") {
    if (node.kind === "scalar" && node.value === null) return;
    const problem = wellKnownProblem(v.type, node);
    if (problem === "message") message(reader, shapes, vars, node, path, v.type, depth + 1);
    else if (problem !== undefined) {
      const [what, hint] = problem;
      reader.error(node, path, `\`${f.name}\`${what.startsWith("(") ? " " : ": "}${what}`, hint);
    }
    return;
  }
  const drawn = node.kind === "scalar" && typeof node.value === "string" &&
      wholeTemplate(node.value)
    ? vars.get(node.value.slice(2, -2).trim())
    : undefined;
  if (drawn !== undefined) {
    const problem = drawnProblem(v, drawn, String((node as { value: unknown }).value));
    if (problem !== undefined) {
      reader.error(node, path, `\`${f.name}\` (${v.type}) ${problem[0]}`, problem[1]);
    }
    return;
  }
  if (v.kind === "enum") {
    if (node.kind !== "scalar" || node.value === null) {
      reader.error(node, path, `\`${f.name}\` is an enum (${v.type}): write one of its names`);
      return;
    }
    const x = node.value;
    if (typeof x === "number" && Number.isInteger(x)) return;
    if (typeof x === "string" && (Object.hasOwn(v.values, x) || wholeTemplate(x))) return;
    const names = Object.keys(v.values);
    const guess = didYouMean(String(x), names);
    reader.error(
      node,
      path,
      `\`${x}\` is not a value of enum ${v.type}`,
      guess !== undefined
        ? `did you mean \`${guess}\`?`
        : `its values: ${names.map((n) => `\`${n}\``).join(", ")}`,
    );
    return;
  }
  const problem = scalarProblem(v.type, node);
  if (problem !== undefined) {
    reader.error(node, path, `\`${f.name}\` (${v.type}) ${problem[0]}`, problem[1]);
  }
}

/**
 * What is wrong with what a template draws as values of a scalar or enum field, with a hint;
 * undefined when every value it can draw fits.
 */
function drawnProblem(
  v: Exclude<FieldValueKind, { kind: "message" }>,
  drawn: Drawn,
  template: string,
): [string, string?] | undefined {
  for (const { value, what } of drawn.values) {
    const node: YamlNode = {
      kind: "scalar",
      pos: { line: 1, col: 1 },
      offset: 0,
      value,
      contentOffset: 0,
      quoted: false,
      length: 1,
    };
    const fits = value === null ||
      (v.kind === "enum"
        ? typeof value === "number" && Number.isInteger(value) ||
          typeof value === "string" && Object.hasOwn(v.values, value)
        : scalarProblem(v.type, node) === undefined ||
          (v.type === "string" && typeof value !== "boolean"));
    if (fits) continue;
    return [
      `cannot take ${what}, which \`${template}\` draws`,
      v.kind !== "enum"
        ? drawn.hint
        : drawn.column
        ? `${drawn.hint}; the enum's names: ${Object.keys(v.values).slice(0, 3).join(", ")}`
        : `draw the enum's names: \`{ choice: [${
          Object.keys(v.values).slice(0, 3).join(", ")
        }] }\``,
    ];
  }
  return undefined;
}

/** What is wrong with `node` as a value of proto scalar `type`, with a hint; undefined if nothing. */
function scalarProblem(type: string, node: YamlNode): [string, string?] | undefined {
  if (node.kind !== "scalar" || node.value === null) {
    return ["takes a single value", node.kind === "seq" ? "the field is not repeated" : undefined];
  }
  const x = node.value;
  if (typeof x === "string" && templated(x)) {
    // Drawn into text anywhere; into a number or bool only as the whole value (`json_value`).
    return type === "string" || type === "bytes" || wholeTemplate(x) ? undefined : [
      "cannot be text around a template",
      'write the whole value as one template, e.g. `"{{n}}"`',
    ];
  }
  if (type === "string") {
    return typeof x === "string" ? undefined : ["takes text", `quote it: \`"${x}"\``];
  }
  if (type === "bytes") {
    return typeof x === "string" && /^[A-Za-z0-9+/_-]*={0,2}$/.test(x) && x.length % 4 !== 1
      ? undefined
      : ["takes base64 text", "encode the bytes as base64, e.g. `aGk=`"];
  }
  if (type === "bool") {
    return typeof x === "boolean" ? undefined : ["takes true or false"];
  }
  if (type === "double" || type === "float") {
    if (typeof x === "number") return undefined;
    if (/^(NaN|-?Infinity)$/.test(x as string)) return undefined;
    if (typeof x === "string" && x.trim() !== "" && Number.isFinite(Number(x))) return undefined;
    return ["takes a number", "e.g. `1.5`"];
  }
  const range = INT_RANGES[type];
  if (range === undefined) return undefined;
  const text = typeof x === "number" ? (Number.isInteger(x) ? String(x) : undefined) : x;
  if (typeof text !== "string" || !/^-?\d+$/.test(text)) {
    return typeof x === "number"
      ? ["takes a whole number", `\`${x}\` has a fraction`]
      : ["takes a whole number", 'e.g. `42` (64-bit values may be written as text: `"42"`)'];
  }
  if (typeof x === "number" && !Number.isSafeInteger(x) && /64/.test(type)) {
    return ["is past 2^53 as a number", `write it as text, \`"${text}"\`, so no digit is lost`];
  }
  const n = BigInt(text);
  if (n < range[0] || n > range[1]) {
    return [`takes ${range[0]} to ${range[1]}`, `\`${text}\` is out of range`];
  }
  return undefined;
}

/** A well-known type's JSON form checked; "message" when `type` is an ordinary message. */
function wellKnownProblem(type: string, node: YamlNode): [string, string?] | "message" | undefined {
  const wrapped = WRAPPERS[type];
  if (wrapped !== undefined) {
    const p = scalarProblem(wrapped, node);
    return p === undefined ? undefined : [`(${type}) ${p[0]}`, p[1]];
  }
  if (ANY_JSON.has(type)) {
    return type === "google.protobuf.Struct" && node.kind !== "map"
      ? ["a Struct is a mapping"]
      : undefined;
  }
  const text = node.kind === "scalar" && typeof node.value === "string" ? node.value : undefined;
  switch (type) {
    case "google.protobuf.Timestamp":
      return text !== undefined && (templated(text) || TIMESTAMP_PATTERN.test(text))
        ? undefined
        : ["a Timestamp is RFC 3339 text", 'e.g. `"2026-01-02T03:04:05Z"`'];
    case "google.protobuf.Duration":
      return text !== undefined && (templated(text) || DURATION_PATTERN.test(text))
        ? undefined
        : ["a Duration is text in seconds", 'e.g. `"1.5s"`'];
    case "google.protobuf.FieldMask":
      return text !== undefined ? undefined : ["a FieldMask is text", 'e.g. `"name,address.city"`'];
    case "google.protobuf.Any":
      return ["`google.protobuf.Any` fields are not yet written by this version"];
  }
  return "message";
}

function mapKeyProblem(type: string, key: string): string | undefined {
  if (type === "string") return undefined;
  if (type === "bool") {
    return /^(true|false)$/.test(key) ? undefined : "a bool key is true or false";
  }
  const range = INT_RANGES[type];
  if (range === undefined) return undefined;
  if (!/^-?\d+$/.test(key)) return `the map's keys (${type}) are whole numbers`;
  const n = BigInt(key);
  return n < range[0] || n > range[1] ? `key \`${key}\` is out of ${type}'s range` : undefined;
}

function describe(node: YamlNode): string {
  if (node.kind === "seq") return "found a list";
  return node.kind === "scalar" ? `found \`${node.value}\`` : "found a mapping";
}

function templated(text: string): boolean {
  return /\{\{|\$\{/.test(text);
}

function wholeTemplate(text: string): boolean {
  return /^\{\{[^{}]*\}\}$/.test(text);
}
