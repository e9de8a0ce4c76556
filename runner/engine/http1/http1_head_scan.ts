/**
 * Byte-level reading of an HTTP/1.x response head: the status line, and the header fields that
 * decide how the body is framed and whether the connection may be reused (Content-Length,
 * Transfer-Encoding, Connection). Lines are scanned in place; no string is made of them, but for
 * the `Retry-After` of a response that asks for it (429, 503).
 *
 * @module
 */
import { retryAfterSeconds } from "../response/mod.ts";

/** `HTTP/` */
const HTTP_PREFIX = [72, 84, 84, 80, 47];
/** Lower-case header names and tokens acted on, as bytes. */
const CONTENT_LENGTH = bytesOf("content-length");
const TRANSFER_ENCODING = bytesOf("transfer-encoding");
const CONNECTION = bytesOf("connection");
const CHUNKED = bytesOf("chunked");
const CLOSE = bytesOf("close");
const KEEP_ALIVE = bytesOf("keep-alive");
const RETRY_AFTER = bytesOf("retry-after");
/** 1 for the bytes allowed in a header name (RFC 9110 token characters). */
const TOKEN = tokenTable();

/**
 * Whether `bytes[pos, end)`, the start of a response, can still begin with `HTTP/`; lets a parser
 * fail at once on bytes that cannot start a status line, rather than waiting for a newline.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { startsLikeStatusLine } from "./http1_head_scan.ts";
 * const bytes = new TextEncoder().encode("HTT");
 * assert.equal(startsLikeStatusLine(bytes, 0, bytes.length), true);
 * ```
 */
export function startsLikeStatusLine(bytes: Uint8Array, pos: number, end: number): boolean {
  const n = Math.min(end - pos, HTTP_PREFIX.length);
  for (let i = 0; i < n; i++) {
    if (bytes[pos + i] !== HTTP_PREFIX[i]) return false;
  }
  return true;
}

/**
 * The three-digit status code of the status line `bytes[pos, lineEnd)` (`HTTP/1.x NNN reason`,
 * without its CRLF), or -1 when the line is malformed. The minor version is then `bytes[pos + 7]`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { statusLineCode } from "./http1_head_scan.ts";
 * const line = new TextEncoder().encode("HTTP/1.1 204 No Content");
 * assert.equal(statusLineCode(line, 0, line.length), 204);
 * ```
 */
export function statusLineCode(bytes: Uint8Array, pos: number, lineEnd: number): number {
  for (let i = 0; i < HTTP_PREFIX.length; i++) {
    if (bytes[pos + i] !== HTTP_PREFIX[i]) return -1;
  }
  const minor = bytes[pos + 7] - 48;
  const ok = lineEnd - pos >= 12 && bytes[pos + 5] === 49 && bytes[pos + 6] === 46 &&
    minor >= 0 && minor <= 9 && bytes[pos + 8] === 32 &&
    (lineEnd - pos === 12 || bytes[pos + 12] === 32);
  if (!ok || !isDigit(bytes[pos + 9]) || !isDigit(bytes[pos + 10]) || !isDigit(bytes[pos + 11])) {
    return -1;
  }
  return (bytes[pos + 9] - 48) * 100 + (bytes[pos + 10] - 48) * 10 + bytes[pos + 11] - 48;
}

/**
 * The framing-relevant header fields of one response head, gathered line by line with
 * {@linkcode ResponseHeaderFields.read}; {@linkcode ResponseHeaderFields.clear} before each head.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ResponseHeaderFields } from "./http1_head_scan.ts";
 * const line = new TextEncoder().encode("Transfer-Encoding: gzip, chunked");
 * const fields = new ResponseHeaderFields();
 * assert.equal(fields.read(line, 0, line.length), ""); // the line is valid
 * assert.deepEqual([fields.transferEncoding, fields.chunked], [true, true]);
 * ```
 */
export class ResponseHeaderFields {
  /** The Content-Length, or -1 when there is none. */
  contentLength = -1;
  /** A Transfer-Encoding header was seen. */
  transferEncoding = false;
  /** The last transfer coding is `chunked`. */
  chunked = false;
  /** A Connection header holds `close`. */
  connectionClose = false;
  /** A Connection header holds `keep-alive`. */
  connectionKeepAlive = false;
  /**
   * Set by the parser when the status asks for it (429, 503): `Retry-After` is then read into
   * {@linkcode ResponseHeaderFields.retryAfterS}; other heads never look for it.
   */
  readRetryAfter = false;
  /** The `Retry-After` delay in seconds (an HTTP date made a delay), or NaN when none was read. */
  retryAfterS = NaN;

  /** Forgets the fields of the previous head. */
  clear(): void {
    this.contentLength = -1;
    this.transferEncoding = false;
    this.chunked = false;
    this.connectionClose = false;
    this.connectionKeepAlive = false;
    this.readRetryAfter = false;
    this.retryAfterS = NaN;
  }

  /**
   * Reads the header line `bytes[pos, lineEnd)` (without its CRLF); returns "" or what is wrong
   * with it.
   */
  read(bytes: Uint8Array, pos: number, lineEnd: number): string {
    let colon = pos;
    while (colon < lineEnd && TOKEN[bytes[colon]] === 1) colon++;
    if (colon === pos || colon === lineEnd || bytes[colon] !== 58) return "malformed header line";
    let from = colon + 1;
    let to = lineEnd;
    for (let i = from; i < to; i++) {
      const b = bytes[i];
      if ((b < 32 && b !== 9) || b === 127) return "control byte in header value";
    }
    while (from < to && (bytes[from] === 32 || bytes[from] === 9)) from++;
    while (to > from && (bytes[to - 1] === 32 || bytes[to - 1] === 9)) to--;
    if (equalsLower(bytes, pos, colon, CONTENT_LENGTH)) return this.#contentLength(bytes, from, to);
    if (equalsLower(bytes, pos, colon, TRANSFER_ENCODING)) {
      this.transferEncoding = true;
      this.chunked = to - from >= CHUNKED.length &&
        equalsLower(bytes, to - CHUNKED.length, to, CHUNKED) &&
        (to - from === CHUNKED.length || isListSeparator(bytes[to - CHUNKED.length - 1]));
    } else if (equalsLower(bytes, pos, colon, CONNECTION)) this.#connection(bytes, from, to);
    else if (this.readRetryAfter && equalsLower(bytes, pos, colon, RETRY_AFTER)) {
      let text = "";
      for (let i = from; i < to; i++) text += String.fromCharCode(bytes[i]);
      this.retryAfterS = retryAfterSeconds(text, Date.now());
    }
    return "";
  }

  #contentLength(bytes: Uint8Array, from: number, to: number): string {
    if (from === to || to - from > 15) return "invalid content-length";
    let length = 0;
    for (let i = from; i < to; i++) {
      if (!isDigit(bytes[i])) return "invalid content-length";
      length = length * 10 + bytes[i] - 48;
    }
    if (this.contentLength >= 0 && this.contentLength !== length) {
      return "conflicting content-length headers";
    }
    this.contentLength = length;
    return "";
  }

  /** Looks for the `close` and `keep-alive` tokens of a comma-separated list. */
  #connection(bytes: Uint8Array, from: number, to: number): void {
    let i = from;
    while (i < to) {
      while (i < to && isListSeparator(bytes[i])) i++;
      let j = i;
      while (j < to && bytes[j] !== 44) j++;
      let k = j;
      while (k > i && (bytes[k - 1] === 32 || bytes[k - 1] === 9)) k--;
      if (equalsLower(bytes, i, k, CLOSE)) this.connectionClose = true;
      else if (equalsLower(bytes, i, k, KEEP_ALIVE)) this.connectionKeepAlive = true;
      i = j;
    }
  }
}

function isDigit(b: number): boolean {
  return b >= 48 && b <= 57;
}

function isListSeparator(b: number): boolean {
  return b === 44 || b === 32 || b === 9;
}

/** Whether `bytes[from, to)` equals the lower-case ASCII `word`, ignoring case. */
function equalsLower(bytes: Uint8Array, from: number, to: number, word: Uint8Array): boolean {
  if (to - from !== word.length) return false;
  for (let i = 0; i < word.length; i++) {
    const b = bytes[from + i];
    if ((b >= 65 && b <= 90 ? b | 32 : b) !== word[i]) return false;
  }
  return true;
}

function bytesOf(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}

function tokenTable(): Uint8Array {
  const table = new Uint8Array(256);
  const specials = "!#$%&'*+-.^_`|~";
  for (let b = 0; b < 128; b++) {
    const c = String.fromCharCode(b);
    if (/[0-9A-Za-z]/.test(c) || specials.includes(c)) table[b] = 1;
  }
  return table;
}
