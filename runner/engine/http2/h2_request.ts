/**
 * A prepared HTTP/1.1 request (`PreparedRequest.bytes`, what the renderer and `prepareRequest()`
 * build) read back into what HTTP/2 sends: `:method`, `:scheme`, `:authority` (from `Host`),
 * `:path`, the other headers with lower-case names in their order, and the body. Headers HTTP/2
 * forbids (`Connection`, `Keep-Alive`, `Transfer-Encoding`, `Upgrade`, `Proxy-Connection`) are
 * dropped; a validated plan has none of them anyway. The header block is HPACK-encoded without the
 * dynamic table, so it can go on any connection as it is.
 *
 * A fixed request is converted once per run; a templated one each time it is sent, on the engine
 * thread, so the conversion reads the octets in place: no string per header, each header name
 * looked up once per run.
 *
 * @module
 */
import {
  encodeInteger,
  latin1Bytes,
  latin1String,
  STATIC_TABLE,
  staticNameIndex,
  writeStringLiteral,
} from "./hpack/mod.ts";

/** One request as HTTP/2 sends it. */
export interface H2Request {
  /** The pseudo-headers, then the request's headers, as an HPACK header block. */
  block: Uint8Array;
  /** The body, or undefined when there is none (the HEADERS frame ends the stream). */
  body: Uint8Array | undefined;
  /** What it sends, counted as HTTP/1.1 counts a head: header octets before HPACK, and the body. */
  bytes: number;
  /**
   * Where the `traceparent` value's octets are in `block` (a literal never Huffman-coded, so a
   * traced send patches them in place); -1 when it has none.
   */
  traceAt: number;
}

/** How one header name is sent. */
interface HeaderName {
  /** The name in lower case. */
  lower: Uint8Array;
  /** A literal without indexing (RFC 7541 §6.2.2) up to its value: the static index or the name. */
  prefix: Uint8Array;
  /** Static-table fields of this name: [value, index], sent as an indexed field (§6.1). */
  indexed: Array<[Uint8Array, number]>;
  /** `Host`, or a header HTTP/2 forbids: not sent as a header. */
  dropped: boolean;
  /** `Host`: its value is sent as `:authority`. */
  host: boolean;
  /** `traceparent`: its value is sent raw (never Huffman-coded), patched per send. */
  trace: boolean;
}

const DROPPED = ["connection", "keep-alive", "transfer-encoding", "upgrade", "proxy-connection"];
/** Names seen in a run are kept; past this many (a run that templates names) they are not. */
const MAX_NAMES = 256;
const CR = 13;
const LF = 10;
const SPACE = 32;
const TAB = 9;
const COLON = 58;

function headerName(lower: string): HeaderName {
  const index = staticNameIndex(lower);
  const bytes = latin1Bytes(lower);
  const prefix = new Uint8Array(6 + 2 * bytes.length);
  let prefixEnd = 1;
  if (index !== 0) prefixEnd = encodeInteger(index, 4, 0x00, prefix, 0);
  else prefixEnd = writeStringLiteral(bytes, 0, bytes.length, prefix, 1); // prefix[0] is 0x00
  const indexed: Array<[Uint8Array, number]> = [];
  STATIC_TABLE.forEach(([name, value], i) => {
    if (name === lower) indexed.push([latin1Bytes(value), i + 1]);
  });
  const host = lower === "host";
  const dropped = host || DROPPED.includes(lower);
  const trace = lower === "traceparent";
  return { lower: bytes, prefix: prefix.slice(0, prefixEnd), indexed, dropped, host, trace };
}

/**
 * Converts prepared HTTP/1.1 requests to HTTP/2 for one `scheme` (`http` or `https`). It keeps the
 * names it has seen, so one encoder serves a run.
 */
export class H2RequestEncoder {
  readonly #scheme: Uint8Array;
  readonly #pseudo: HeaderName[];
  readonly #names = new Map<number, HeaderName[]>();
  #namesKept = 0;
  /** Per header sent: its name, and where its value starts and ends. */
  readonly #lineNames: HeaderName[] = [];
  #lines = new Int32Array(2 * 32);
  #out = new Uint8Array(1024);
  /** Where the block's `traceparent` value was written (-1: none), as {@linkcode #field} saw. */
  #traceAt = -1;

  constructor(scheme: string) {
    this.#scheme = latin1Bytes(scheme);
    this.#pseudo = [":method", ":scheme", ":authority", ":path"].map(headerName);
  }

  /**
   * Reads the HTTP/1.1 request in `bytes` (head and body). Throws a `RangeError` for bytes that are
   * not a request head: the engine built them, so that is a bug. The body is a view of `bytes`.
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import { H2RequestEncoder } from "./h2_request.ts";
   * import { HpackDecoder } from "./hpack/mod.ts";
   * const head = "GET /a?b=1 HTTP/1.1\r\nHost: x:8080\r\nX-Id: 7\r\n\r\n";
   * const r = new H2RequestEncoder("http").encode(new TextEncoder().encode(head));
   * const fields: string[] = [];
   * new HpackDecoder().decode(r.block, (name, value) => fields.push(`${name}: ${value}`));
   * assert.deepEqual(fields, [":method: GET", ":scheme: http", ":authority: x:8080", ":path: /a?b=1", "x-id: 7"]);
   * assert.equal(r.body, undefined);
   * ```
   */
  encode(bytes: Uint8Array): H2Request {
    const headEnd = indexOfBlankLine(bytes);
    if (headEnd < 0) {
      throw new RangeError("a prepared request without the blank line ending its head");
    }
    const lineEnd = indexOfCrlf(bytes, 0, headEnd);
    const methodEnd = bytes.indexOf(SPACE);
    const pathEnd = methodEnd < 0 ? -1 : bytes.indexOf(SPACE, methodEnd + 1);
    if (methodEnd <= 0 || pathEnd <= methodEnd + 1 || pathEnd >= lineEnd) {
      throw new RangeError(
        `a prepared request line that is not one: ${latin1String(bytes, 0, lineEnd)}`,
      );
    }
    // First pass: the header lines, and Host for :authority, which goes before them.
    let lines = 0;
    let hostStart = 0;
    let hostEnd = 0;
    let octets = methodEnd + this.#scheme.length + (pathEnd - methodEnd - 1);
    for (let at = lineEnd + 2; at < headEnd + 2;) {
      const end = indexOfCrlf(bytes, at, headEnd);
      let colon = at;
      while (colon < end && bytes[colon] !== COLON) colon++;
      if (colon > at && colon < end) {
        const name = this.#name(bytes, at, colon);
        const valueStart = skipSpace(bytes, colon + 1, end);
        const valueEnd = trimSpaceEnd(bytes, valueStart, end);
        if (name.host) {
          hostStart = valueStart;
          hostEnd = valueEnd;
        }
        if (!name.dropped) {
          if (2 * lines + 2 > this.#lines.length) this.#lines = grown(this.#lines);
          this.#lineNames[lines] = name;
          this.#lines[2 * lines] = valueStart;
          this.#lines[2 * lines + 1] = valueEnd;
          lines++;
          octets += name.lower.length + valueEnd - valueStart;
        }
      }
      at = end + 2;
    }
    octets += hostEnd - hostStart;
    let at = 0;
    this.#traceAt = -1;
    const [method, scheme, authority, path] = this.#pseudo;
    at = this.#field(method, bytes, 0, methodEnd, at);
    at = this.#field(scheme, this.#scheme, 0, this.#scheme.length, at);
    at = this.#field(authority, bytes, hostStart, hostEnd, at);
    at = this.#field(path, bytes, methodEnd + 1, pathEnd, at);
    for (let i = 0; i < lines; i++) {
      at = this.#field(this.#lineNames[i], bytes, this.#lines[2 * i], this.#lines[2 * i + 1], at);
    }
    const body = bytes.length > headEnd + 4 ? bytes.subarray(headEnd + 4) : undefined;
    return {
      block: this.#out.slice(0, at),
      body,
      bytes: octets + (body?.length ?? 0),
      traceAt: this.#traceAt,
    };
  }

  /** Writes one field: indexed when the static table holds it whole, else a literal. */
  #field(name: HeaderName, bytes: Uint8Array, start: number, end: number, at: number): number {
    // Room for the literal, the longer form: its prefix, the length's integer and the octets raw.
    const room = at + name.prefix.length + 5 + end - start;
    if (room > this.#out.length) {
      const out = new Uint8Array(2 * room);
      out.set(this.#out.subarray(0, at));
      this.#out = out;
    }
    for (const [value, index] of name.indexed) {
      if (equalBytes(value, bytes, start, end)) return encodeInteger(index, 7, 0x80, this.#out, at);
    }
    this.#out.set(name.prefix, at);
    if (name.trace) {
      // Raw (RFC 7541 §5.2, H = 0): the per-send ids go over these octets as they are.
      at = encodeInteger(end - start, 7, 0x00, this.#out, at + name.prefix.length);
      this.#traceAt = at;
      this.#out.set(bytes.subarray(start, end), at);
      return at + end - start;
    }
    return writeStringLiteral(bytes, start, end, this.#out, at + name.prefix.length);
  }

  /** The header name in `bytes[start, end)` (trimmed, any case), looked up or made once. */
  #name(bytes: Uint8Array, start: number, end: number): HeaderName {
    start = skipSpace(bytes, start, end);
    end = trimSpaceEnd(bytes, start, end);
    let hash = 0x811c9dc5;
    for (let i = start; i < end; i++) hash = Math.imul(hash ^ lowerOctet(bytes[i]), 0x01000193);
    const bucket = this.#names.get(hash);
    if (bucket) {
      for (const name of bucket) if (equalLower(name.lower, bytes, start, end)) return name;
    }
    let lower = "";
    for (let i = start; i < end; i++) lower += String.fromCharCode(lowerOctet(bytes[i]));
    const name = headerName(lower);
    if (this.#namesKept < MAX_NAMES) {
      this.#namesKept++;
      if (bucket) bucket.push(name);
      else this.#names.set(hash, [name]);
    }
    return name;
  }
}

/**
 * Reads the HTTP/1.1 request in `bytes` as an HTTP/2 request over `scheme`, once: a run converts
 * with one {@linkcode H2RequestEncoder}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { h2Request } from "./h2_request.ts";
 * const r = h2Request(new TextEncoder().encode("GET / HTTP/1.1\r\nHost: x\r\n\r\n"), "http");
 * assert.deepEqual(r.block, Uint8Array.of(0x82, 0x86, 0x01, 0x01, 0x78, 0x84)); // GET http, :authority x, /
 * ```
 */
export function h2Request(bytes: Uint8Array, scheme: string): H2Request {
  return new H2RequestEncoder(scheme).encode(bytes);
}

function lowerOctet(octet: number): number {
  return octet >= 0x41 && octet <= 0x5a ? octet | 0x20 : octet;
}

function equalLower(lower: Uint8Array, bytes: Uint8Array, start: number, end: number): boolean {
  if (lower.length !== end - start) return false;
  for (let i = 0; i < lower.length; i++) {
    if (lower[i] !== lowerOctet(bytes[start + i])) return false;
  }
  return true;
}

function equalBytes(value: Uint8Array, bytes: Uint8Array, start: number, end: number): boolean {
  if (value.length !== end - start) return false;
  for (let i = 0; i < value.length; i++) if (value[i] !== bytes[start + i]) return false;
  return true;
}

/** After the spaces and tabs from `at` (optional whitespace, RFC 9110 §5.6.3). */
function skipSpace(bytes: Uint8Array, at: number, end: number): number {
  while (at < end && (bytes[at] === SPACE || bytes[at] === TAB)) at++;
  return at;
}

/** `end` moved back over trailing spaces and tabs, not past `start`. */
function trimSpaceEnd(bytes: Uint8Array, start: number, end: number): number {
  while (end > start && (bytes[end - 1] === SPACE || bytes[end - 1] === TAB)) end--;
  return end;
}

function grown(lines: Int32Array): Int32Array<ArrayBuffer> {
  const more = new Int32Array(2 * lines.length);
  more.set(lines);
  return more;
}

/** Where the CRLF ending the line at `from` starts; `limit` (the blank line's start) if none. */
function indexOfCrlf(bytes: Uint8Array, from: number, limit: number): number {
  for (let i = from; i < limit; i++) if (bytes[i] === CR && bytes[i + 1] === LF) return i;
  return limit;
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
