/**
 * A prepared HTTP/1.1 request (`PreparedRequest.bytes`, what the renderer and `prepareRequest()`
 * build) read back into what HTTP/2 sends: `:method`, `:scheme`, `:authority` (from `Host`),
 * `:path`, the other headers in lower case, and the body. Headers HTTP/2 forbids (`Connection`,
 * `Keep-Alive`, `Transfer-Encoding`, `Upgrade`, `Proxy-Connection`) are dropped; a validated plan
 * has none of them anyway. The header block is HPACK-encoded without the dynamic table, so it can
 * go on any connection as it is: a fixed request is read and encoded once per run.
 *
 * @module
 */
import { encodeHeaderBlock, latin1String } from "./hpack/mod.ts";

/** The request head as HTTP/2 sends it: pseudo-headers first, names in lower case. */
export type H2Headers = Record<string, string | string[]>;

/** One request as HTTP/2 sends it. */
export interface H2Request {
  /** Pseudo-headers first, then the request's headers in lower case. */
  headers: H2Headers;
  /** `headers` as an HPACK header block. */
  block: Uint8Array;
  /** The body, or undefined when there is none (the HEADERS frame ends the stream). */
  body: Uint8Array | undefined;
  /** What it sends, counted as HTTP/1.1 counts a head: header octets before HPACK, and the body. */
  bytes: number;
}

const FORBIDDEN = new Set([
  "connection",
  "keep-alive",
  "transfer-encoding",
  "upgrade",
  "proxy-connection",
  "host",
]);

/**
 * Reads the HTTP/1.1 request in `bytes` (head and body) as an HTTP/2 request over `scheme`
 * (`http` or `https`). Throws a `RangeError` for bytes that are not a request head: the engine
 * built them, so that is a bug.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { h2Request } from "./h2_request.ts";
 * const r = h2Request(new TextEncoder().encode("GET /a?b=1 HTTP/1.1\r\nHost: x:8080\r\nX-Id: 7\r\n\r\n"), "http");
 * assert.deepEqual(r.headers, { ":method": "GET", ":scheme": "http", ":authority": "x:8080", ":path": "/a?b=1", "x-id": "7" });
 * ```
 */
export function h2Request(bytes: Uint8Array, scheme: string): H2Request {
  const headEnd = indexOfBlankLine(bytes);
  if (headEnd < 0) {
    throw new RangeError("a prepared request without the blank line ending its head");
  }
  // One char per octet: a header's bytes (UTF-8 or not) go out as they are, as over HTTP/1.1.
  const lines = latin1String(bytes, 0, headEnd).split("\r\n");
  const [method, path] = lines[0].split(" ");
  if (!method || !path) {
    throw new RangeError(`a prepared request line that is not one: ${lines[0]}`);
  }
  const headers: H2Headers = {
    ":method": method,
    ":scheme": scheme,
    ":authority": "",
    ":path": path,
  };
  let octets = method.length + scheme.length + path.length;
  for (let i = 1; i < lines.length; i++) {
    const colon = lines[i].indexOf(":");
    if (colon <= 0) continue;
    const name = lines[i].slice(0, colon).trim().toLowerCase();
    const value = lines[i].slice(colon + 1).trim();
    if (name === "host") headers[":authority"] = value;
    if (FORBIDDEN.has(name)) continue;
    const had = headers[name];
    headers[name] = had === undefined ? value : [...(Array.isArray(had) ? had : [had]), value];
    octets += name.length + value.length;
  }
  octets += (headers[":authority"] as string).length;
  const body = bytes.length > headEnd + 4 ? bytes.subarray(headEnd + 4) : undefined;
  const fields: Array<[string, string]> = [];
  for (const name in headers) {
    const value = headers[name];
    for (const v of Array.isArray(value) ? value : [value]) fields.push([name, v]);
  }
  return { headers, block: encodeHeaderBlock(fields), body, bytes: octets + (body?.length ?? 0) };
}

/** Where the head's `\r\n\r\n` starts, or -1. */
function indexOfBlankLine(bytes: Uint8Array): number {
  for (let i = 0; i + 3 < bytes.length; i++) {
    if (bytes[i] === 13 && bytes[i + 1] === 10 && bytes[i + 2] === 13 && bytes[i + 3] === 10) {
      return i;
    }
  }
  return -1;
}
