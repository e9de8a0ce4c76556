/**
 * Turns a plan request into the exact HTTP/1.1 bytes sent for it, once, before the run: the
 * request line, `Host`, the plan's headers, `User-Agent` and `Content-Length`, then the body.
 *
 * @module
 */
import type { PlanRequest, PlanTrace } from "../../plan/mod.ts";
import { TRACEPARENT_BYTES } from "../../schedule/mod.ts";
import { framingProblem, isTraceHeader } from "../../plan/runtime/mod.ts";
import { TAILGATE_VERSION } from "../../version.ts";
import type { PreparedRequest } from "../types.ts";
import { KEEP_BODY_BYTES } from "../kept_response.ts";

/**
 * Thrown by {@linkcode prepareRequest} for a request that cannot be sent: a URL that is not
 * http(s), or a file body whose bytes were not passed in.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { PrepareRequestError } from "./http1_request.ts";
 * assert.equal(new PrepareRequestError("unsupported URL scheme ftp:").name, "PrepareRequestError");
 * ```
 */
export class PrepareRequestError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PrepareRequestError";
  }
}

/** Methods whose request has a `Content-Length: 0` when it has no body (as fetch does). */
const EMPTY_BODY_LENGTH_METHODS = new Set(["POST", "PUT", "PATCH"]);
const encoder = new TextEncoder();

/** The `User-Agent` line tailgate sends unless the plan sets one. */
export const USER_AGENT_LINE = `User-Agent: tailgate/${TAILGATE_VERSION}\r\n`;

/** The `traceparent` line's start, up to its value. */
export const TRACEPARENT_PREFIX = "traceparent: ";

/**
 * The trace context lines of a traced request (`trace`): `traceparent` with a placeholder value,
 * patched per send, then `tracestate` when the plan sets one; "" without `trace`. The value starts
 * {@linkcode TRACEPARENT_PREFIX}'s length into them.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { traceLines } from "./http1_request.ts";
 * assert.equal(traceLines({ tracestate: "a=1" }).split("\r\n")[1], "tracestate: a=1");
 * assert.equal(traceLines(undefined), "");
 * ```
 */
export function traceLines(trace: PlanTrace | undefined): string {
  if (trace === undefined) return "";
  const placeholder = `00-${"0".repeat(32)}-${"0".repeat(16)}-01`;
  if (placeholder.length !== TRACEPARENT_BYTES) throw new Error("traceparent's length changed");
  const state = trace.tracestate === undefined ? "" : `tracestate: ${trace.tracestate}\r\n`;
  return `${TRACEPARENT_PREFIX}${placeholder}\r\n${state}`;
}

/** Which of tailgate's own lines a request head carries, around the plan's headers. */
export interface HeadLayout {
  /** `Host`, unless the plan sets one. */
  host: boolean;
  /** `User-Agent`, unless the plan sets one. */
  userAgent: boolean;
  /** `Content-Length`: with a body, or for POST, PUT and PATCH without one. */
  contentLength: boolean;
  /**
   * Whether a plan header is written: never one that frames the request (plan/wire_rules.ts), so
   * the request says the body's true `Content-Length` and nothing else about its framing; with
   * `trace`, never a `traceparent` or `tracestate` of its own (tailgate's replace them).
   */
  sends(name: string): boolean;
}

/**
 * The layout of a request head, the one rule for fixed and rendered requests alike: the request
 * line, `Host`, the plan's headers, `User-Agent`, `Content-Length`, a blank line.
 */
export function headLayout(
  method: string,
  headerNames: readonly string[],
  hasBody: boolean,
  traced = false,
): HeadLayout {
  const names = new Set(headerNames.map((n) => n.toLowerCase()));
  return {
    host: !names.has("host"),
    userAgent: !names.has("user-agent"),
    contentLength: hasBody || EMPTY_BODY_LENGTH_METHODS.has(method),
    sends: (name) =>
      framingProblem(name) === undefined &&
      !(traced && isTraceHeader(name)),
  };
}

/**
 * Builds the request bytes. `Host` carries the port when it is not the scheme's default; a plan
 * header named `host` or `user-agent` replaces tailgate's own, and `content-length` is always the
 * body's true length (a plan's own framing headers, `Transfer-Encoding` and `Connection` too, are
 * dropped; a validated plan has none). A `file` body's bytes, read by the caller, and a `grpc`
 * body's framed message, encoded by it, are passed as `bodyBytes`; a `grpc` body's request says
 * `te: trailers` too, as gRPC requires (a plan's own `te` is refused as framing).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { prepareRequest } from "./http1_request.ts";
 * const prepared = prepareRequest({
 *   label: "GET /orders", method: "GET", url: "http://127.0.0.1:8080/orders?page=2",
 *   headers: [], weight: 1, timeoutMs: 5000, expect: { codes: [], classes: [2] },
 * }, 0);
 * assert.equal(new TextDecoder().decode(prepared.bytes).split("\r\n")[0], "GET /orders?page=2 HTTP/1.1");
 * ```
 */
export function prepareRequest(
  request: PlanRequest,
  labelIndex: number,
  bodyBytes?: Uint8Array,
  trace?: PlanTrace,
): PreparedRequest {
  const url = new URL(request.url);
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new PrepareRequestError(
      `${request.label}: unsupported URL scheme ${url.protocol} (use http: or https:)`,
    );
  }
  const body = bodyOf(request, bodyBytes);
  const layout = headLayout(
    request.method,
    request.headers.map((h) => h.name),
    body !== undefined,
    trace !== undefined,
  );
  let head = `${request.method} ${url.pathname}${url.search} HTTP/1.1\r\n`;
  if (layout.host) head += `Host: ${url.host}\r\n`;
  for (const header of request.headers) {
    if (layout.sends(header.name)) head += `${header.name}: ${header.value}\r\n`;
  }
  if (layout.userAgent) head += USER_AGENT_LINE;
  // gRPC requires `te: trailers` (a framing header, never a plan's: tailgate adds it itself).
  if (request.body?.kind === "grpc") head += "te: trailers\r\n";
  // Trace context last but Content-Length: the value's place is known, patched per send.
  const traceAt = trace === undefined
    ? -1
    : encoder.encode(head).length + TRACEPARENT_PREFIX.length;
  head += traceLines(trace);
  if (layout.contentLength) head += `Content-Length: ${body?.length ?? 0}\r\n`;
  const headBytes = encoder.encode(`${head}\r\n`);
  const bytes = new Uint8Array(headBytes.length + (body?.length ?? 0));
  bytes.set(headBytes);
  if (body !== undefined) bytes.set(body, headBytes.length);
  return {
    labelIndex,
    bytes,
    isHead: request.method === "HEAD",
    timeoutMs: request.timeoutMs,
    expect: request.expect,
    // A label with checks reads its responses: they keep their body (up to a limit) and head.
    // Always set (0: dropped), so every prepared request has one shape.
    keepBodyBytes: request.checks?.length ? KEEP_BODY_BYTES : 0,
    traceAt,
    copyOf: undefined,
  };
}

function bodyOf(request: PlanRequest, bodyBytes: Uint8Array | undefined): Uint8Array | undefined {
  const body = request.body;
  if (body === undefined) return undefined;
  // A file's bytes, and a gRPC call's framed message (encoded from its JSON by the run), are given.
  if (body.kind !== "file" && body.kind !== "grpc") return encoder.encode(body.text);
  if (bodyBytes === undefined) {
    const what = body.kind === "file"
      ? `the bytes of body file ${body.path}`
      : "the framed gRPC message of its body";
    throw new PrepareRequestError(`${request.label}: ${what} were not passed in`);
  }
  return bodyBytes;
}
