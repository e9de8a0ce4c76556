/**
 * An incremental HTTP/1.x response parser that scans bytes in place: no string is made of the
 * head or the body, and the body is counted and dropped, never copied. It frames the response
 * (Content-Length, chunked with trailers, close-delimited; no body for HEAD, 204 and 304; 1xx
 * interim responses skipped) and says whether the connection may be reused.
 *
 * @module
 */

/**
 * Longest response head (status line and headers) or chunked trailer section accepted.
 *
 * @example
 * ```ts
 * import { Http1ResponseParser, MAX_RESPONSE_HEAD_BYTES } from "./http1_response_parser.ts";
 * new Http1ResponseParser().maxHeadBytes === MAX_RESPONSE_HEAD_BYTES; // true
 * ```
 */
export const MAX_RESPONSE_HEAD_BYTES = 64 * 1024;

const HEAD = 0;
const BODY_LENGTH = 1;
const BODY_CLOSE = 2;
const CHUNK_SIZE = 3;
const CHUNK_EXT = 4;
const CHUNK_SIZE_LF = 5;
const CHUNK_DATA = 6;
const CHUNK_DATA_CR = 7;
const CHUNK_DATA_LF = 8;
const TRAILER = 9;
const TRAILER_LF = 10;
const DONE = 11;
const FAILED = 12;

const CR = 13;
const LF = 10;
/** Hex digits of a chunk size: 12 keep it below 2^53. */
const MAX_CHUNK_SIZE_DIGITS = 12;
/** `HTTP/` */
const HTTP_PREFIX = [72, 84, 84, 80, 47];
/** Lower-case header names the parser acts on, as bytes. */
const CONTENT_LENGTH = bytesOf("content-length");
const TRANSFER_ENCODING = bytesOf("transfer-encoding");
const CONNECTION = bytesOf("connection");
const CHUNKED = bytesOf("chunked");
const CLOSE = bytesOf("close");
const KEEP_ALIVE = bytesOf("keep-alive");
/** 1 for the bytes allowed in a header name (RFC 9110 token characters). */
const TOKEN = tokenTable();
/** Value of a hex digit byte, or -1. */
const HEX = hexTable();

/**
 * Parses one response at a time. Feed it bytes with {@linkcode Http1ResponseParser.execute}
 * until {@linkcode Http1ResponseParser.done} or {@linkcode Http1ResponseParser.failed}; call
 * {@linkcode Http1ResponseParser.finish} when the peer closes; {@linkcode Http1ResponseParser.reset}
 * before the next response. Protocol errors set `failed` and `error`; nothing is thrown.
 *
 * @example
 * ```ts
 * import { Http1ResponseParser } from "./http1_response_parser.ts";
 * const bytes = new TextEncoder().encode("HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nhi");
 * const parser = new Http1ResponseParser();
 * parser.reset(false);
 * parser.execute(bytes, 0, bytes.length); // 40: every byte consumed
 * [parser.done, parser.status, parser.keepAlive]; // [true, 200, true]
 * ```
 */
export class Http1ResponseParser {
  /** Status code of the final response; 0 until its status line is read. */
  status = 0;
  /** Whether the connection may carry another request after this response. */
  keepAlive = true;
  /** What was wrong, when {@linkcode Http1ResponseParser.failed}. */
  error = "";
  #state = DONE;
  #isHead = false;
  /** Body bytes (or chunk bytes) still to come. */
  #remaining = 0;
  #chunkDigits = 0;
  /** Bytes of the head, or of the trailer section, read so far. */
  #headBytes = 0;
  /** Bytes of an unfinished head line already searched for its end. */
  #lineScanned = 0;
  #trailerLineBytes = 0;
  #minorVersion = 1;
  #contentLength = -1;
  #transferEncoding = false;
  #chunked = false;
  #connectionClose = false;
  #connectionKeepAlive = false;

  /** @param maxHeadBytes Longest head (and trailer section) accepted before failing. */
  constructor(readonly maxHeadBytes: number = MAX_RESPONSE_HEAD_BYTES) {}

  /** True once the whole response has been read. */
  get done(): boolean {
    return this.#state === DONE;
  }

  /** True when the bytes are not a valid response; `error` says why. */
  get failed(): boolean {
    return this.#state === FAILED;
  }

  /** Prepares for the response to a new request; `isHead`: it was a HEAD (no body). */
  reset(isHead: boolean): void {
    this.#isHead = isHead;
    this.status = 0;
    this.error = "";
    this.#startHead();
  }

  /**
   * Consumes `bytes[start, end)` and returns the index of the first byte not consumed. Only an
   * unfinished head line is left unconsumed: pass it again at the start of the next call, followed
   * by the bytes read after it. Bytes after a complete response are not consumed.
   */
  execute(bytes: Uint8Array, start: number, end: number): number {
    let pos = start;
    while (pos < end) {
      switch (this.#state) {
        case HEAD: {
          const next = this.#headLine(bytes, pos, end);
          if (next < 0) return pos;
          pos = next;
          break;
        }
        case BODY_LENGTH:
        case CHUNK_DATA: {
          const take = Math.min(this.#remaining, end - pos);
          pos += take;
          this.#remaining -= take;
          if (this.#remaining === 0) {
            this.#state = this.#state === CHUNK_DATA ? CHUNK_DATA_CR : DONE;
          }
          break;
        }
        case BODY_CLOSE:
          return end;
        case DONE:
        case FAILED:
          return pos;
        default:
          pos = this.#chunkFraming(bytes, pos, end);
      }
    }
    return pos;
  }

  /** The peer closed the connection: true when that completes the response (close-delimited). */
  finish(): boolean {
    if (this.#state === BODY_CLOSE) this.#state = DONE;
    return this.#state === DONE;
  }

  #startHead(): void {
    this.#state = HEAD;
    this.keepAlive = true;
    this.#headBytes = 0;
    this.#lineScanned = 0;
    this.#contentLength = -1;
    this.#transferEncoding = false;
    this.#chunked = false;
    this.#connectionClose = false;
    this.#connectionKeepAlive = false;
  }

  #fail(reason: string): number {
    this.#state = FAILED;
    this.error = reason;
    this.keepAlive = false;
    return -1;
  }

  /** Reads one head line starting at `pos`; returns the index after it, or -1 for more bytes. */
  #headLine(bytes: Uint8Array, pos: number, end: number): number {
    let lf = pos + this.#lineScanned;
    while (lf < end && bytes[lf] !== LF) lf++;
    if (lf === end) {
      this.#lineScanned = end - pos;
      if (this.#headBytes + this.#lineScanned > this.maxHeadBytes) {
        return this.#fail(`response head longer than ${this.maxHeadBytes} bytes`);
      }
      if (this.status === 0 && this.#headBytes === 0) this.#checkPrefix(bytes, pos, end);
      return -1;
    }
    this.#lineScanned = 0;
    this.#headBytes += lf + 1 - pos;
    if (this.#headBytes > this.maxHeadBytes) {
      return this.#fail(`response head longer than ${this.maxHeadBytes} bytes`);
    }
    if (lf === pos || bytes[lf - 1] !== CR) return this.#fail("head line not ended by CRLF");
    const lineEnd = lf - 1;
    if (this.status === 0) this.#statusLine(bytes, pos, lineEnd);
    else if (lineEnd === pos) this.#endOfHead();
    else this.#headerLine(bytes, pos, lineEnd);
    return this.#state === FAILED ? -1 : lf + 1;
  }

  /** Fails at once on bytes that cannot start a status line, rather than waiting for a newline. */
  #checkPrefix(bytes: Uint8Array, pos: number, end: number): void {
    const n = Math.min(end - pos, HTTP_PREFIX.length);
    for (let i = 0; i < n; i++) {
      if (bytes[pos + i] !== HTTP_PREFIX[i]) {
        this.#fail("response does not start with HTTP/");
        return;
      }
    }
  }

  /** `HTTP/1.x NNN reason` */
  #statusLine(bytes: Uint8Array, pos: number, lineEnd: number): void {
    for (let i = 0; i < HTTP_PREFIX.length; i++) {
      if (bytes[pos + i] !== HTTP_PREFIX[i]) return void this.#fail("malformed status line");
    }
    const minor = bytes[pos + 7] - 48;
    const ok = lineEnd - pos >= 12 && bytes[pos + 5] === 49 && bytes[pos + 6] === 46 &&
      minor >= 0 && minor <= 9 && bytes[pos + 8] === 32 &&
      (lineEnd - pos === 12 || bytes[pos + 12] === 32);
    const status = (bytes[pos + 9] - 48) * 100 + (bytes[pos + 10] - 48) * 10 + bytes[pos + 11] - 48;
    if (!ok || !isDigit(bytes[pos + 9]) || !isDigit(bytes[pos + 10]) || !isDigit(bytes[pos + 11])) {
      return void this.#fail("malformed status line");
    }
    if (status < 100) return void this.#fail(`status ${status} is not a valid status`);
    this.status = status;
    this.#minorVersion = minor;
  }

  #headerLine(bytes: Uint8Array, pos: number, lineEnd: number): void {
    let colon = pos;
    while (colon < lineEnd && TOKEN[bytes[colon]] === 1) colon++;
    if (colon === pos || colon === lineEnd || bytes[colon] !== 58) {
      return void this.#fail("malformed header line");
    }
    let from = colon + 1;
    let to = lineEnd;
    for (let i = from; i < to; i++) {
      const b = bytes[i];
      if ((b < 32 && b !== 9) || b === 127) return void this.#fail("control byte in header value");
    }
    while (from < to && (bytes[from] === 32 || bytes[from] === 9)) from++;
    while (to > from && (bytes[to - 1] === 32 || bytes[to - 1] === 9)) to--;
    if (equalsLower(bytes, pos, colon, CONTENT_LENGTH)) this.#contentLengthValue(bytes, from, to);
    else if (equalsLower(bytes, pos, colon, TRANSFER_ENCODING)) {
      this.#transferEncoding = true;
      this.#chunked = to - from >= CHUNKED.length &&
        equalsLower(bytes, to - CHUNKED.length, to, CHUNKED) &&
        (to - from === CHUNKED.length || isListSeparator(bytes[to - CHUNKED.length - 1]));
    } else if (equalsLower(bytes, pos, colon, CONNECTION)) this.#connectionValue(bytes, from, to);
  }

  #contentLengthValue(bytes: Uint8Array, from: number, to: number): void {
    if (from === to || to - from > 15) return void this.#fail("invalid content-length");
    let length = 0;
    for (let i = from; i < to; i++) {
      if (!isDigit(bytes[i])) return void this.#fail("invalid content-length");
      length = length * 10 + bytes[i] - 48;
    }
    if (this.#contentLength >= 0 && this.#contentLength !== length) {
      return void this.#fail("conflicting content-length headers");
    }
    this.#contentLength = length;
  }

  /** Looks for the `close` and `keep-alive` tokens of a comma-separated list. */
  #connectionValue(bytes: Uint8Array, from: number, to: number): void {
    let i = from;
    while (i < to) {
      while (i < to && isListSeparator(bytes[i])) i++;
      let j = i;
      while (j < to && bytes[j] !== 44) j++;
      let k = j;
      while (k > i && (bytes[k - 1] === 32 || bytes[k - 1] === 9)) k--;
      if (equalsLower(bytes, i, k, CLOSE)) this.#connectionClose = true;
      else if (equalsLower(bytes, i, k, KEEP_ALIVE)) this.#connectionKeepAlive = true;
      i = j;
    }
  }

  /** The blank line: decides how the body is framed. */
  #endOfHead(): void {
    const status = this.status;
    if (status < 200 && status !== 101) {
      this.status = 0; // an interim response: the final one follows
      this.#startHead();
      return;
    }
    this.keepAlive = this.#minorVersion === 0
      ? this.#connectionKeepAlive && !this.#connectionClose
      : !this.#connectionClose;
    if (this.#isHead || status === 204 || status === 304 || status === 101) {
      if (status === 101) this.keepAlive = false; // the connection now speaks another protocol
      this.#state = DONE;
    } else if (this.#transferEncoding) {
      if (this.#contentLength >= 0) this.keepAlive = false; // both framings: do not reuse
      if (this.#chunked) this.#startChunk();
      else this.#closeDelimited();
    } else if (this.#contentLength > 0) {
      this.#remaining = this.#contentLength;
      this.#state = BODY_LENGTH;
    } else if (this.#contentLength === 0) this.#state = DONE;
    else this.#closeDelimited();
  }

  #closeDelimited(): void {
    this.keepAlive = false;
    this.#state = BODY_CLOSE;
  }

  #startChunk(): void {
    this.#state = CHUNK_SIZE;
    this.#remaining = 0;
    this.#chunkDigits = 0;
  }

  /** Chunk-size lines, the CRLF after chunk data, and the trailer section, byte by byte. */
  #chunkFraming(bytes: Uint8Array, pos: number, end: number): number {
    for (; pos < end; pos++) {
      const b = bytes[pos];
      switch (this.#state) {
        case CHUNK_SIZE:
          if (HEX[b] >= 0) {
            if (++this.#chunkDigits > MAX_CHUNK_SIZE_DIGITS) return this.#failAt(end, "chunk size");
            this.#remaining = this.#remaining * 16 + HEX[b];
          } else if (this.#chunkDigits === 0) return this.#failAt(end, "chunk size");
          else if (b === CR) this.#state = CHUNK_SIZE_LF;
          else if (b === 59 || b === 32 || b === 9) {
            this.#state = CHUNK_EXT;
            this.#headBytes = 0;
          } else return this.#failAt(end, "chunk size");
          break;
        case CHUNK_EXT:
          if (b === CR) this.#state = CHUNK_SIZE_LF;
          else if (++this.#headBytes > this.maxHeadBytes) {
            return this.#failAt(end, "chunk extension");
          }
          break;
        case CHUNK_SIZE_LF:
          if (b !== LF) return this.#failAt(end, "chunk size line ending");
          if (this.#remaining > 0) {
            this.#state = CHUNK_DATA;
            return pos + 1;
          }
          this.#state = TRAILER;
          this.#headBytes = 0;
          this.#trailerLineBytes = 0;
          break;
        case CHUNK_DATA_CR:
          if (b !== CR) return this.#failAt(end, "chunk data ending");
          this.#state = CHUNK_DATA_LF;
          break;
        case CHUNK_DATA_LF:
          if (b !== LF) return this.#failAt(end, "chunk data ending");
          this.#startChunk();
          break;
        case TRAILER:
          if (b === CR) this.#state = TRAILER_LF;
          else if (b === LF) return this.#failAt(end, "trailer line ending");
          else this.#trailerLineBytes++;
          if (++this.#headBytes > this.maxHeadBytes) return this.#failAt(end, "trailer size");
          break;
        default: // TRAILER_LF
          if (b !== LF) return this.#failAt(end, "trailer line ending");
          if (this.#trailerLineBytes === 0) {
            this.#state = DONE;
            return pos + 1;
          }
          this.#state = TRAILER;
          this.#trailerLineBytes = 0;
      }
    }
    return pos;
  }

  /** Fails on a chunked-framing error; returns `end` so `execute` stops. */
  #failAt(end: number, what: string): number {
    this.#fail(`invalid ${what} in chunked body`);
    return end;
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

function hexTable(): Int8Array {
  const table = new Int8Array(256).fill(-1);
  for (let d = 0; d < 10; d++) table[48 + d] = d;
  for (let d = 0; d < 6; d++) table[65 + d] = table[97 + d] = 10 + d;
  return table;
}
