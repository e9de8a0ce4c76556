/**
 * proto3's JSON form of a message (what a plan writes under `message:` and what checks read) and
 * the object protobufjs encodes: field names as written or in their JSON (lowerCamel) form, and
 * the well-known types' JSON forms (Timestamp as RFC 3339 text, Duration as `"1.5s"`, wrappers as
 * bare values, Struct/Value/ListValue as any JSON, FieldMask as `"a.b,c"`) turned into their
 * messages, which protobufjs' `fromObject` does not do itself.
 *
 * @module
 */
import { type FieldInfo, fieldsOf, type ProtoRoot } from "../../protobuf/mod.ts";

/** The wrapper types (`google.protobuf.Int32Value`, …): each written as its bare value. */
export const WRAPPERS: Readonly<Record<string, string>> = {
  "google.protobuf.DoubleValue": "double",
  "google.protobuf.FloatValue": "float",
  "google.protobuf.Int64Value": "int64",
  "google.protobuf.UInt64Value": "uint64",
  "google.protobuf.Int32Value": "int32",
  "google.protobuf.UInt32Value": "uint32",
  "google.protobuf.BoolValue": "bool",
  "google.protobuf.StringValue": "string",
  "google.protobuf.BytesValue": "bytes",
};

/** Well-known types whose JSON form is any JSON value. */
export const ANY_JSON = new Set([
  "google.protobuf.Struct",
  "google.protobuf.Value",
  "google.protobuf.ListValue",
]);

/** RFC 3339 date-time, as proto3 JSON writes a Timestamp. */
export const TIMESTAMP_PATTERN =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2})$/;

/** A Duration's JSON form: seconds with up to nine fractional digits, then `s`. */
export const DURATION_PATTERN = /^(-?)(\d{1,12})(\.\d{1,9})?s$/;

/** Each message type's fields, looked up once. */
export class MessageShapes {
  readonly #fields = new Map<string, FieldInfo[] | undefined>();

  constructor(readonly root: ProtoRoot) {}

  /** The fields of message type `type`, undefined when it is no message of the schema. */
  fields(type: string): FieldInfo[] | undefined {
    if (!this.#fields.has(type)) this.#fields.set(type, fieldsOf(this.root, type));
    return this.#fields.get(type);
  }

  /** The field a JSON key names: by its name or its JSON name. */
  field(type: string, key: string): FieldInfo | undefined {
    return this.fields(type)?.find((f) => f.name === key || f.jsonName === key);
  }
}

/**
 * The object protobufjs' `fromObject` wants for `value`, a valid proto3 JSON message of `type`
 * (checked by validate_message.ts first; a key of no field is dropped).
 */
export function toProtoObject(
  shapes: MessageShapes,
  type: string,
  value: unknown,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (value === null || typeof value !== "object" || Array.isArray(value)) return out;
  for (const [key, v] of Object.entries(value)) {
    const f = shapes.field(type, key);
    if (f === undefined || v === null) continue;
    const one = (x: unknown) => fieldValue(shapes, f, x);
    if (f.mapKey !== undefined) {
      out[f.name] = Object.fromEntries(
        Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, one(x)]),
      );
    } else if (f.repeated) out[f.name] = (v as unknown[]).map(one);
    else out[f.name] = one(v);
  }
  return out;
}

function fieldValue(shapes: MessageShapes, f: FieldInfo, v: unknown): unknown {
  if (f.value.kind === "message") return messageValue(shapes, f.value.type, v);
  if (f.value.kind === "scalar" && f.value.type === "bytes" && typeof v === "string") {
    return v.replaceAll("-", "+").replaceAll("_", "/");
  }
  return v;
}

function messageValue(shapes: MessageShapes, type: string, v: unknown): unknown {
  if (WRAPPERS[type] !== undefined) {
    return { value: WRAPPERS[type] === "bytes" && typeof v === "string" ? base64Std(v) : v };
  }
  switch (type) {
    case "google.protobuf.Timestamp":
      return timestamp(String(v));
    case "google.protobuf.Duration":
      return duration(String(v));
    case "google.protobuf.FieldMask":
      return {
        paths: String(v).split(",").filter((p) => p !== "").map((p) =>
          p.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)
        ),
      };
    case "google.protobuf.Struct":
      return struct(v);
    case "google.protobuf.Value":
      return anyValue(v);
    case "google.protobuf.ListValue":
      return { values: (Array.isArray(v) ? v : []).map(anyValue) };
  }
  return toProtoObject(shapes, type, v);
}

function base64Std(text: string): string {
  return text.replaceAll("-", "+").replaceAll("_", "/");
}

function struct(v: unknown): unknown {
  const entries = v !== null && typeof v === "object" && !Array.isArray(v) ? Object.entries(v) : [];
  return { fields: Object.fromEntries(entries.map(([k, x]) => [k, anyValue(x)])) };
}

function anyValue(v: unknown): unknown {
  if (v === null || v === undefined) return { nullValue: "NULL_VALUE" };
  if (typeof v === "number") return { numberValue: v };
  if (typeof v === "string") return { stringValue: v };
  if (typeof v === "boolean") return { boolValue: v };
  if (Array.isArray(v)) return { listValue: { values: v.map(anyValue) } };
  return { structValue: struct(v) };
}

/** A Timestamp's seconds and nanos from its RFC 3339 text (valid: see TIMESTAMP_PATTERN). */
export function timestamp(text: string): { seconds: string; nanos: number } {
  const m = TIMESTAMP_PATTERN.exec(text)!;
  const ms = Date.parse(`${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}${m[8].toUpperCase()}`);
  const nanos = m[7] ? Number(m[7].slice(1).padEnd(9, "0")) : 0;
  return { seconds: String(Math.floor(ms / 1000)), nanos };
}

/** A Duration's seconds and nanos from its text (`"1.5s"`). */
export function duration(text: string): { seconds: string; nanos: number } {
  const m = DURATION_PATTERN.exec(text)!;
  const sign = m[1] === "-" ? -1 : 1;
  const nanos = m[3] ? Number(m[3].slice(1).padEnd(9, "0")) : 0;
  return { seconds: `${m[1]}${m[2]}`, nanos: sign * nanos };
}
