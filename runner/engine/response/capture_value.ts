/**
 * Taking a captured value from a step's response: a JSON pointer (RFC 6901) into its body, or a
 * header. Pure. A value keeps its text (sent in paths, headers and text) and its JSON (sent as a
 * JSON body's whole value, keeping its type).
 *
 * @module
 */
import type { CaptureSource } from "../../plan/mod.ts";
import { err, ok, type Problem, type Result } from "../../model/mod.ts";

/** A captured value: its text form, and its JSON when the pointer found one. */
export interface CapturedValue {
  /** A string as it is; a number, boolean, object or array as its JSON text. */
  text: string;
  /** The value's JSON text. */
  json: string;
}

/** The parts of a response a capture reads. */
export interface StepResponse {
  /** Header values by lower-case name; `set-cookie` keeps one value per header line. */
  header(name: string): string[];
  /** The response's header names, for a message (never their values). */
  names(): string;
  /** The body as text (at most as much as was read). */
  bodyText: string;
  /** Set when the body passed the read limit: `bodyText` is its beginning only. */
  cutAtBytes?: number;
}

/**
 * Where a capture comes from, as reports show it: `json /access_token`, `header set-cookie`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { captureSourceText } from "./capture_value.ts";
 * assert.equal(captureSourceText({ kind: "json", pointer: "/access_token" }), "json /access_token");
 * ```
 */
export function captureSourceText(from: CaptureSource): string {
  return from.kind === "json"
    ? `json ${from.pointer || "(the whole body)"}`
    : from.kind === "regex"
    ? `regex ${from.pattern}`
    : `header ${from.name}`;
}

/** Why a capture found nothing; `showBody` when the body may be shown to explain it. */
export interface CaptureProblem extends Problem {
  showBody?: boolean;
}

/**
 * The value `from` names in `response`, or why there is none. A `set-cookie` header gives its
 * first cookie's `name=value` (what a `Cookie` header sends back); another header repeated gives
 * its values joined by `, `.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { captureValue } from "./capture_value.ts";
 * const response = { header: () => [], names: () => "", bodyText: '{"data":{"ids":[7,8]}}' };
 * assert.deepEqual(captureValue({ kind: "json", pointer: "/data/ids/1" }, response), { ok: true, value: { text: "8", json: "8" } });
 * ```
 */
export function captureValue(
  from: CaptureSource,
  response: StepResponse,
): Result<CapturedValue, CaptureProblem> {
  if (from.kind === "header") {
    const values = response.header(from.name);
    if (values.length === 0) {
      return err({
        message: `the response has no \`${from.name}\` header (it has ${response.names()})`,
      });
    }
    const text = from.name === "set-cookie" ? values[0].split(";")[0].trim() : values.join(", ");
    return ok({ text, json: JSON.stringify(text) });
  }
  if (from.kind === "regex") return captureByRegex(from.pattern, response);
  if (response.cutAtBytes !== undefined) {
    // A cut body is no JSON whatever it held, and its beginning may hold the very token the
    // capture wanted: say why, never show it.
    return err({
      message:
        `the response body passed the ${
          response.cutAtBytes / 1024 / 1024
        } MiB a step reads, so it was cut and \`${from.pointer}\` cannot be read from it: make ` +
        "the step's request ask for less (a filter, a page)",
    });
  }
  let doc: unknown;
  try {
    doc = parseKeepingNumbers(response.bodyText);
  } catch {
    return err({
      message: `the response body is not JSON, so \`${from.pointer}\` finds nothing`,
      showBody: true,
    });
  }
  const found = resolvePointer(doc, from.pointer);
  if (!found.ok) {
    // The shape where the pointer failed, never a value: a body that holds a token elsewhere
    // must not put it in a CI log.
    return err({
      message: `the response's JSON has nothing at \`${from.pointer}\` (${
        found.problems[0].message
      })`,
    });
  }
  const json = SourceJson.isRawJSON(found.value)
    ? found.value.rawJSON
    : JSON.stringify(found.value);
  return ok({ text: typeof found.value === "string" ? found.value : json, json });
}

/**
 * JSON.parse's source text access and JSON.rawJSON (TC39 JSON.parse source text access; V8 11.4,
 * so every Deno 2), which TypeScript's lib does not declare yet.
 */
const SourceJson = JSON as unknown as {
  parse(
    text: string,
    reviver: (key: string, value: unknown, context: { source?: string }) => unknown,
  ): unknown;
  rawJSON(text: string): { rawJSON: string };
  isRawJSON(value: unknown): value is { rawJSON: string };
};

/**
 * `text` parsed, each number whose JavaScript value would not print as its source (beyond 2^53,
 * `1.50`, `2e3`) kept as that source (a raw JSON value): a captured id is sent as the server wrote
 * it, never rounded.
 */
function parseKeepingNumbers(text: string): unknown {
  return SourceJson.parse(
    text,
    (_key, value, context) =>
      typeof value === "number" && context.source !== undefined &&
        String(value) !== context.source
        ? SourceJson.rawJSON(context.source)
        : value,
  );
}

/** Where a JSON pointer stopped: the pointer to the last value found (`""`: the root), what is there. */
export interface PointerMiss extends Problem {
  at: string;
  there: string;
}

/**
 * The value at an RFC 6901 pointer, or the problem saying where it stopped (`at`: the pointer to
 * the last value found, `""` for the root) and what is there.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resolvePointer } from "./capture_value.ts";
 * assert.deepEqual(resolvePointer({ "a/b": [1, 2] }, "/a~1b/0"), { ok: true, value: 1 });
 * assert.deepEqual(resolvePointer({ token: "x" }, "/access_token"), {
 *   ok: false,
 *   problems: [{ message: 'at its root, an object with "token"', at: "", there: 'an object with "token"' }],
 * });
 * ```
 */
export function resolvePointer(
  doc: unknown,
  pointer: string,
): Result<unknown, PointerMiss> {
  if (pointer === "") return ok(doc);
  let value = doc;
  const tokens = pointer.slice(1).split("/");
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i].replaceAll("~1", "/").replaceAll("~0", "~");
    // Where it stopped, made only on a miss (an `absent` check misses on every response).
    const miss = (there: string) => {
      const at = tokens.slice(0, i).map((t) => `/${t}`).join("");
      return err({ message: `${at === "" ? "at its root" : `at \`${at}\``}, ${there}`, at, there });
    };
    if (Array.isArray(value)) {
      if (!/^(0|[1-9][0-9]*)$/.test(token) || Number(token) >= value.length) {
        return miss(`an array of ${value.length}`);
      }
      value = value[Number(token)];
    } else if (
      value !== null && typeof value === "object" && !SourceJson.isRawJSON(value) &&
      Object.hasOwn(value, token)
    ) {
      value = (value as Record<string, unknown>)[token];
    } else {
      const keys = value !== null && typeof value === "object" ? Object.keys(value) : [];
      const there = SourceJson.isRawJSON(value)
        ? "a number"
        : value === null || typeof value !== "object"
        ? `a ${value === null ? "null" : typeof value}`
        : keys.length === 0
        ? "an empty object"
        : `an object with ${keys.slice(0, 10).map((k) => JSON.stringify(k)).join(", ")}` +
          (keys.length > 10 ? ` and ${keys.length - 10} more keys` : "");
      return miss(there);
    }
  }
  return ok(value);
}

/** What {@linkcode pointerValue} returns where the pointer finds nothing. */
export const NO_VALUE: unique symbol = Symbol("no value");

/**
 * The value `pointer` finds in `doc`, or {@linkcode NO_VALUE}: {@linkcode resolvePointer}'s rule
 * without the words of a miss (a check's hot path: `absent` misses on every response).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { NO_VALUE, pointerValue } from "./capture_value.ts";
 * assert.equal(pointerValue({ a: [1, 2] }, "/a/1"), 2);
 * assert.equal(pointerValue({ a: [1, 2] }, "/a/2"), NO_VALUE);
 * ```
 */
export function pointerValue(doc: unknown, pointer: string): unknown {
  if (pointer === "") return doc;
  let value = doc;
  let from = 1;
  while (from <= pointer.length) {
    let to = pointer.indexOf("/", from);
    if (to < 0) to = pointer.length;
    let token = pointer.slice(from, to);
    if (token.includes("~")) token = token.replaceAll("~1", "/").replaceAll("~0", "~");
    from = to + 1;
    if (Array.isArray(value)) {
      if (!/^(0|[1-9][0-9]*)$/.test(token) || Number(token) >= value.length) return NO_VALUE;
      value = value[Number(token)];
    } else if (
      value !== null && typeof value === "object" && !SourceJson.isRawJSON(value) &&
      Object.hasOwn(value, token)
    ) {
      value = (value as Record<string, unknown>)[token];
    } else return NO_VALUE;
  }
  return value;
}

/**
 * The first match's one group of `pattern` in the body text (a journey step's `{ regex: … }`; the
 * plan layer made sure the pattern compiles and has exactly one group). A cut body is searched
 * as read: a match in its beginning is still the value the step meant.
 */
function captureByRegex(
  pattern: string,
  response: StepResponse,
): Result<CapturedValue, CaptureProblem> {
  const match = new RegExp(pattern).exec(response.bodyText);
  if (match === null || match[1] === undefined) {
    return err({
      message: `the regular expression \`${pattern}\` finds nothing in the response body` +
        (response.cutAtBytes === undefined ? "" : " (cut where the read stopped)"),
      showBody: response.cutAtBytes === undefined,
    });
  }
  return ok({ text: match[1], json: JSON.stringify(match[1]) });
}
