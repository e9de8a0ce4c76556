/**
 * `plans/schema.json`, generated from the plan language's one description (plan_language.ts): a
 * JSON Schema (draft-07) editors use to complete and check plans. Regenerate it with
 * `deno task schema`; a test fails while the committed file differs from what this makes.
 *
 * @module
 */
import { MAX_TRACESTATE_CHARS } from "./plan_language.ts";
import {
  type KeySpec,
  PLAN_LANGUAGE,
  type SectionName,
  type SectionSpec,
} from "./plan_language.ts";
import { GRPC_STATUS_NAMES } from "../../model/mod.ts";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

/** Where the generated schema is committed, relative to the repository root. */
export const PLAN_SCHEMA_PATH = "plans/schema.json";

/** Sections written once under `definitions` and referenced; the others are written in place. */
const DEFINED: readonly SectionName[] = ["request", "step", "stage"];

/** How each value format is written in the schema (the parsers in units.ts agree; a test checks). */
const FORMATS: Record<"duration" | "rate" | "headers" | "status", JsonObject> = {
  duration: {
    type: "string",
    pattern: "^\\s*(\\d+(\\.\\d+)?\\s*(ns|us|µs|μs|ms|s|m|h)\\s*)+$",
    examples: ["250us", "10ms", "60s", "2m", "1m30s"],
  },
  rate: {
    type: "string",
    pattern: "^\\s*\\d+(\\.\\d+)?\\s*[kM]?\\s*/\\s*(s|sec|second|m|min)\\s*$",
    examples: ["500/s", "20k/s", "1.5M/m"],
  },
  headers: {
    type: "object",
    description:
      "Header names to values; ${env.NAME} reads an environment variable and makes the value secret; {{var}} and {{source.column}} draw a value per request.",
    additionalProperties: { type: ["string", "number"] },
  },
  status: {
    oneOf: [
      { type: "integer", minimum: 100, maximum: 599 },
      { type: "string", pattern: "^[1-5]xx$" },
      { type: "integer", minimum: 0, maximum: GRPC_STATUS_NAMES.length - 1 },
      { enum: [...GRPC_STATUS_NAMES] },
    ],
  },
};

const SLO_PATTERN =
  "^\\s*(p\\d+(\\.\\d+)?|\\d+(\\.\\d+)?\\s*%ile|max|mean|error_rate|throughput)\\s*(<=|>=|<|>)\\s*\\S+";
const RAMP_PATTERN = "^\\s*\\S+\\s*(->|→|to)\\s*\\S+\\s*$";
const PERCENT_PATTERN = "^\\s*\\d+(\\.\\d+)?\\s*%\\s*$";
const URL_PATTERN = "^https?://";
const GRPC_URL_PATTERN = "^(https?|grpcs?)://";
const METHOD_PATTERN = "^[A-Z][A-Z-]*$";
const NAME_PATTERN = "^[A-Za-z_][A-Za-z0-9_]*$";

const ref = (name: string): JsonObject => ({ $ref: `#/definitions/${name}` });

/**
 * The plan schema, made from the plan language.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { planSchema } from "./plan_schema.ts";
 * const schema = planSchema();
 * assert.ok(Object.keys(schema.properties as object).includes("load")); // the plan's top-level keys
 * ```
 */
export function planSchema(): JsonObject {
  const plan = PLAN_LANGUAGE.plan;
  const definitions: JsonObject = { ...FORMATS };
  for (const name of DEFINED) definitions[name] = section(PLAN_LANGUAGE[name]);
  return {
    $schema: "https://json-schema.org/draft-07/schema#",
    $id: "https://tailgate.dev/schema/plan.json",
    title: "tailgate plan",
    ...section(plan),
    definitions,
  };
}

/**
 * The schema as committed: two-space JSON and a final newline.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { planSchemaText } from "./plan_schema.ts";
 * assert.ok(planSchemaText().endsWith("}\n"));
 * ```
 */
export function planSchemaText(): string {
  return JSON.stringify(planSchema(), null, 2) + "\n";
}

function section(spec: SectionSpec): JsonObject {
  const out: JsonObject = {};
  if (spec.path === "" && spec.description) out.description = spec.description;
  out.type = "object";
  out.additionalProperties = false;
  if (spec.path !== "" && spec.description) out.description = spec.description;
  if (spec.required?.length) out.required = [...spec.required];
  const properties: JsonObject = {};
  for (const key of spec.keys) properties[key.key] = property(key);
  out.properties = properties;
  if (spec.minKeys !== undefined) out.minProperties = spec.minKeys;
  for (const group of spec.exclusive ?? []) out.not = { required: [...group] };
  if (spec.variants) {
    const all = spec.variants.flat();
    out.oneOf = spec.variants.map((group) => ({
      required: [...group],
      not: { anyOf: all.filter((k) => !group.includes(k)).map((k) => ({ required: [k] })) },
    }));
  }
  return out;
}

function property(key: KeySpec): JsonObject {
  const out = shape(key);
  if (key.default !== undefined) out.default = key.default;
  if (key.description !== undefined) out.description = key.description;
  if (key.examples !== undefined && key.kind !== "slo_list") out.examples = [...key.examples];
  return out;
}

function shape(key: KeySpec): JsonObject {
  switch (key.kind) {
    case "text":
      return key.minLength ? { type: "string", minLength: key.minLength } : { type: "string" };
    case "json":
      return {};
    case "url":
      return { type: "string", pattern: key.grpc ? GRPC_URL_PATTERN : URL_PATTERN };
    case "text_list":
      return { type: "array", items: { type: "string" }, minItems: key.minItems ?? 0 };
    case "message":
      return { type: "object" };
    case "path":
      return { type: "string", pattern: "^/" };
    case "method":
      return { type: "string", pattern: METHOD_PATTERN };
    case "duration":
    case "rate":
    case "headers":
      return ref(key.kind);
    case "ramp":
      return { type: "string", pattern: RAMP_PATTERN };
    case "integer":
      return { type: "integer", minimum: key.min, maximum: key.max };
    case "integer_or_auto":
      return {
        oneOf: [{ const: "auto" }, { type: "integer", minimum: key.min, maximum: key.max }],
      };
    case "positive_number":
      return { type: "number", exclusiveMinimum: 0, maximum: key.max };
    case "boolean":
      return { type: "boolean" };
    case "choice": {
      // A choice read with numbers as text takes the numbers too (`http: 2` as well as `"2"`).
      const numbers = key.numbersAsText
        ? key.values.filter((v) => /^\d+(\.\d+)?$/.test(v)).map(Number)
        : [];
      return { enum: [...key.values, ...numbers] };
    }
    case "statuses":
      return { oneOf: [ref("status"), { type: "array", items: ref("status") }] };
    case "body": {
      const keys = PLAN_LANGUAGE.body.keys;
      const template = keys.find((k) => k.key === "template")!;
      return {
        oneOf: [
          { type: "string" },
          ...keys.filter((k) => k !== template).map((k): JsonObject => ({
            type: "object",
            additionalProperties: false,
            required: [k.key],
            properties: k.key === "file"
              ? { file: shape(k), template: property(template) }
              : { [k.key]: shape(k) },
          })),
        ],
      };
    }
    case "data_sources":
      return {
        type: "object",
        additionalProperties: false,
        patternProperties: {
          [NAME_PATTERN]: { oneOf: [{ type: "string" }, section(PLAN_LANGUAGE[key.of])] },
        },
      };
    case "vars":
      return {
        type: "object",
        additionalProperties: false,
        patternProperties: {
          [NAME_PATTERN]: {
            oneOf: [
              { enum: ["uuid", "counter"] },
              {
                type: "object",
                additionalProperties: false,
                required: ["int"],
                properties: {
                  int: { type: "array", items: { type: "integer" }, minItems: 2, maxItems: 2 },
                },
              },
              {
                type: "object",
                additionalProperties: false,
                required: ["choice"],
                properties: {
                  choice: {
                    type: "array",
                    minItems: 1,
                    items: { type: ["string", "number", "boolean"] },
                  },
                },
              },
            ],
          },
        },
      };
    case "captures":
      return {
        type: "object",
        additionalProperties: false,
        patternProperties: {
          [NAME_PATTERN]: {
            oneOf: ["json", "header", "regex"].map((from) => ({
              type: "object",
              additionalProperties: false,
              required: [from],
              properties: {
                [from]: from === "json"
                  ? { type: "string", pattern: "^(/.*)?$" }
                  : from === "regex"
                  ? { type: "string", pattern: "\\(" }
                  : {
                    type: "string",
                    pattern: "^[!#$%&'*+.^_`|~0-9A-Za-z-]+$",
                  },
              },
            })),
          },
        },
      };
    case "url_or_port":
      return {
        oneOf: [
          { type: "string", pattern: URL_PATTERN },
          { type: "integer", minimum: 1, maximum: 65535 },
          { type: "string", pattern: "^[0-9]+$" },
        ],
      };
    case "env":
      return {
        type: "object",
        additionalProperties: false,
        patternProperties: { [NAME_PATTERN]: { type: ["string", "number", "boolean"] } },
      };
    case "percent_change":
      return { type: "string", pattern: PERCENT_PATTERN };
    case "slo_list":
      return {
        type: "array",
        items: { type: "string", pattern: SLO_PATTERN, examples: [...(key.examples ?? [])] },
      };
    case "list": {
      const item = (name: SectionName) =>
        DEFINED.includes(name) ? ref(name) : section(PLAN_LANGUAGE[name]);
      return {
        type: "array",
        minItems: 1,
        items: key.or === undefined ? item(key.of) : { anyOf: [item(key.of), item(key.or)] },
      };
    }
    case "checks":
      return {
        type: "object",
        additionalProperties: false,
        properties: {
          status: { type: ["integer", "string", "array"] },
          header: { type: "object", additionalProperties: { type: "string" } },
          json: { type: "object", propertyNames: { pattern: "^(/.*)?$" } },
          body: {
            type: "object",
            additionalProperties: false,
            properties: { contains: { type: "string" }, matches: { type: "string" } },
          },
          max_bytes: { type: "integer", minimum: 0 },
        },
      };
    case "think":
      return { type: "string" };
    case "trace": {
      const object = section(PLAN_LANGUAGE.trace);
      const state = (object.properties as JsonObject).tracestate as JsonObject;
      state.maxLength = MAX_TRACESTATE_CHARS;
      return { oneOf: [{ type: "boolean" }, object] };
    }
    case "section":
      return DEFINED.includes(key.section) ? ref(key.section) : section(PLAN_LANGUAGE[key.section]);
  }
}

if (import.meta.main) {
  // `deno task schema`: writes the schema where editors find it (plans/*.yaml point at it).
  const path = new URL(`../../../${PLAN_SCHEMA_PATH}`, import.meta.url);
  await Deno.writeTextFile(path, planSchemaText());
  console.log(`wrote ${PLAN_SCHEMA_PATH}`);
}
