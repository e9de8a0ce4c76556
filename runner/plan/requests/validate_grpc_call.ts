/**
 * A request that is a gRPC call (`call:`), read into the HTTP/2 request that makes it: `POST` to
 * the call's path on the target (its http(s) form: a `grpc://` URL has no origin), the plan's
 * default headers and the call's `metadata` beside `content-type: application/grpc`,
 * `te: trailers` and, with a deadline, `grpc-timeout`; the message (checked against the request
 * type) as the body's JSON text, framed as protobuf when sent; `expect` in gRPC status names or
 * codes (default `OK`). The label defaults to `Service/Method` (`Greeter/SayHello`).
 *
 * @module
 */
import { GRPC_STATUS_BASE } from "../../model/mod.ts";
import type { Draws, GrpcRead } from "../grpc/mod.ts";
import { join, type PlanReader, type Section, type YamlNode } from "../read/mod.ts";
import type { TemplateScope } from "../traffic/mod.ts";
import { jsonTemplate } from "../traffic/mod.ts";
import type { PlanBody, PlanHeader, RequestBasics, RequestTemplate } from "../types.ts";
import { readExpect } from "./validate_expect.ts";
import { readHeaders } from "./validate_headers.ts";

/** What every request of the plan starts from: `defaults`, and the plan's gRPC section. */
export interface RequestDefaults {
  headers: PlanHeader[];
  timeoutMs?: number;
  /** The plan's `grpc` section, read (absent: no `grpc`, or a broken one). */
  grpc?: GrpcRead;
  /** Whether the target is `grpc://` or `grpcs://`. */
  grpcTarget?: boolean;
  /** What each `{{name}}` in a call's message can draw (vars and data columns). */
  draws?: Draws;
}

/** Keys that only a call has. */
export const CALL_KEYS = ["message", "deadline", "metadata", "grpc"] as const;

/** The largest `grpc-timeout` value: 8 digits (gRPC over HTTP/2). */
const MAX_TIMEOUT_DIGITS = 99_999_999;

/**
 * Reads a call request's keys (`f`, a request, step or journey step); the request, undefined when
 * something is wrong (reported). `label` is the request's name, when given.
 */
export function readGrpcCall(
  reader: PlanReader,
  f: Section,
  path: string,
  target: string | undefined,
  defaults: RequestDefaults,
  scope: TemplateScope,
  timeoutMs: number | undefined,
  label: string | undefined,
): RequestBasics | undefined {
  const callNode = f.at("call")!;
  const text = f.get<string>("call");
  if (!defaults.grpcTarget) {
    reader.error(
      callNode,
      join(path, "call"),
      "a gRPC call needs a `grpc://` or `grpcs://` target",
      target === undefined
        ? "add e.g. `target: grpc://127.0.0.1:50051`"
        : "write the plan's target as `grpc://host:port` (or `grpcs://` for TLS)",
    );
    return undefined;
  }
  const grpc = defaults.grpc;
  if (grpc === undefined || text === undefined || target === undefined) {
    // No `grpc` section is told once, by the plan; a broken one is reported already.
    return undefined;
  }
  const found = grpc.support.lookupCall(grpc.proto, text);
  if (!found.ok) {
    const [p] = found.problems;
    reader.error(callNode, join(path, "call"), p.message, p.hint);
    return undefined;
  }
  const own = f.at("grpc") === undefined ? undefined : grpc.deadlines.get(f.at("grpc")!);
  const deadlineMs = f.has("deadline") ? f.get<number>("deadline") : own ?? grpc.deadlineMs;
  if (f.has("deadline") && deadlineMs === undefined) return undefined;
  const call = { ...found.value, ...(deadlineMs === undefined ? {} : { deadlineMs }) };
  const messageNode = f.at("message");
  const messagePath = join(path, "message");
  const messageOk = messageNode === undefined ||
    grpc.support.checkMessage(
      reader,
      grpc.shapes,
      defaults.draws ?? new Map(),
      messageNode,
      messagePath,
      call.requestType,
    );
  const compiled = messageNode ? jsonTemplate(reader, messageNode, messagePath, scope) : undefined;
  const headers = metadata(reader, f, path, defaults, scope);
  const expect = f.at("expect")
    ? readExpect(reader, f.at("expect")!, join(path, "expect"), true)
    : { codes: [GRPC_STATUS_BASE], classes: [] };
  if (!messageOk || headers === undefined || expect === undefined || timeoutMs === undefined) {
    return undefined;
  }
  const fixed = (name: string, value: string): PlanHeader => ({
    name,
    value,
    template: value,
    secret: false,
  });
  headers.push(fixed("content-type", "application/grpc"), fixed("te", "trailers"));
  if (deadlineMs !== undefined) headers.push(fixed("grpc-timeout", grpcTimeout(deadlineMs)));
  const body: PlanBody = {
    kind: "grpc",
    text: messageNode === undefined ? "{}" : JSON.stringify(plain(messageNode)),
  };
  const drawn = compiled !== undefined && !compiled.verbatim;
  const template: RequestTemplate | undefined = drawn || headers.some((h) => h.parts)
    ? {
      target: [{ kind: "text", text: call.path }],
      headers: headers.map((h) => ({
        name: h.name,
        parts: h.parts ??
          [
            h.secret
              ? { kind: "secret", value: h.value, template: h.template }
              : { kind: "text", text: h.value },
          ],
      })),
      // A fixed message is framed once, as a file body's bytes are, so it is not a template part.
      ...(drawn ? { body: compiled.parts } : {}),
    }
    : undefined;
  const short = `${call.service.slice(call.service.lastIndexOf(".") + 1)}/${call.method}`;
  return {
    label: label ?? short,
    method: "POST",
    url: `${target}${call.path}`,
    headers,
    body,
    timeoutMs,
    expect,
    ...(template ? { template } : {}),
    grpc: call,
  };
}

/** The plan's default headers with the call's `metadata` (or `headers`) over them, checked. */
function metadata(
  reader: PlanReader,
  f: Section,
  path: string,
  defaults: RequestDefaults,
  scope: TemplateScope,
): PlanHeader[] | undefined {
  // gRPC's own headers in `defaults` are reported by the plan (grpcDefaultsOk).
  const headers = defaults.headers.filter((h) => !reserved(h.name.toLowerCase()));
  const key = f.has("metadata") ? "metadata" : "headers";
  const node: YamlNode | undefined = f.at(key);
  if (f.has("metadata") && f.has("headers")) {
    reader.error(
      f.at("headers")!,
      join(path, "headers"),
      "`metadata` and `headers` say the same on a call: give one",
      "keep `metadata`",
    );
    return undefined;
  }
  if (node === undefined) return headers;
  const before = reader.issues.length;
  for (const h of readHeaders(reader, node, join(path, key), scope)) {
    const name = h.name.toLowerCase();
    const entry = node.kind === "map" ? node.entries.find((e) => e.key === h.name) : undefined;
    if (reserved(name)) {
      reader.errorAt(
        entry?.keyPos ?? node.pos,
        h.name.length,
        join(join(path, key), h.name),
        `\`${h.name}\` is set by gRPC itself`,
        "remove it: `deadline` sets `grpc-timeout`",
      );
      continue;
    }
    if (name.endsWith("-bin") && !h.parts && !/^[A-Za-z0-9+/]*={0,2}$/.test(h.value)) {
      reader.error(
        entry?.value ?? node,
        join(join(path, key), h.name),
        `\`${h.name}\` is binary metadata: its value is base64`,
        "encode the bytes as base64, e.g. `aGk=`",
      );
      continue;
    }
    const at = headers.findIndex((d) => d.name.toLowerCase() === name);
    if (at >= 0) headers[at] = h;
    else headers.push(h);
  }
  return reader.issues.length > before &&
      reader.issues.slice(before).some((i) => i.severity === "error")
    ? undefined
    : headers;
}

/**
 * Whether a call's `check` asks only what a gRPC response shows: `json`, a field of the response
 * message's JSON form. False with a located error at each other kind.
 */
export function callChecksOk(reader: PlanReader, node: YamlNode, path: string): boolean {
  if (node.kind !== "map") return true;
  let ok = true;
  for (const e of node.entries) {
    if (e.key === "json") continue;
    ok = false;
    reader.errorAt(
      e.keyPos,
      e.key.length,
      join(join(path, "check"), e.key),
      `a gRPC call's \`check\` takes \`json\` (fields of the response message), not \`${e.key}\``,
      e.key === "status"
        ? "say which gRPC statuses count as success with `expect`, e.g. `expect: [OK, NOT_FOUND]`"
        : 'check a field of the response message: `check: { json: { /message: { matches: "^Hello" } } }`',
    );
  }
  return ok;
}

/**
 * Whether a call step's `capture` reads what a gRPC response shows: `json` (a field of the response
 * message) or `header` (response metadata); a `regex` over the body would read protobuf bytes.
 * False with a located error.
 */
export function callCapturesOk(reader: PlanReader, node: YamlNode, path: string): boolean {
  if (node.kind !== "map") return true;
  let ok = true;
  for (const e of node.entries) {
    const from = e.value.kind === "map"
      ? e.value.entries.find((x) => x.key === "regex")
      : undefined;
    if (from === undefined) continue;
    ok = false;
    reader.errorAt(
      from.keyPos,
      from.key.length,
      join(join(join(path, "capture"), e.key), "regex"),
      "a gRPC call's response body is protobuf: a `regex` capture cannot read it",
      "capture a field of the response message: `{ json: /pointer }`",
    );
  }
  return ok;
}

/** Whether a header name is one gRPC sets itself. */
function reserved(name: string): boolean {
  return name === "content-type" || name === "te" || name.startsWith("grpc-");
}

/**
 * Whether a gRPC plan's `defaults.headers` leave gRPC's own headers (`content-type`, `te`,
 * `grpc-*`) to it; false with a located error at each.
 */
export function grpcDefaultsOk(reader: PlanReader, defaults: YamlNode): boolean {
  const headers = defaults.kind === "map"
    ? defaults.entries.find((e) => e.key === "headers")?.value
    : undefined;
  if (headers?.kind !== "map") return true;
  let ok = true;
  for (const e of headers.entries) {
    if (!reserved(e.key.toLowerCase())) continue;
    ok = false;
    reader.errorAt(
      e.keyPos,
      e.key.length,
      join("defaults.headers", e.key),
      `\`${e.key}\` is set by gRPC itself`,
      "remove it from `defaults`: a call sends `content-type: application/grpc` and `te: trailers`",
    );
  }
  return ok;
}

/**
 * A deadline as `grpc-timeout`: milliseconds (`m`) up to eight digits, else whole seconds.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { grpcTimeout } from "./validate_grpc_call.ts";
 * assert.equal(grpcTimeout(500), "500m");
 * assert.equal(grpcTimeout(200_000_000), "200000S");
 * ```
 */
export function grpcTimeout(deadlineMs: number): string {
  const ms = Math.ceil(deadlineMs);
  return ms <= MAX_TIMEOUT_DIGITS ? `${ms}m` : `${Math.ceil(ms / 1000)}S`;
}

function plain(node: YamlNode): unknown {
  if (node.kind === "scalar") return node.value;
  if (node.kind === "seq") return node.items.map(plain);
  return Object.fromEntries(node.entries.map((e) => [e.key, plain(e.value)]));
}
