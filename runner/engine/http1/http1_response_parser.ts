/**
 * An incremental HTTP/1.x response parser that scans bytes in place: no string is made of the
 * head or the body, and the body is counted and dropped, never copied (but for the first bytes of
 * one its `onFinalStatus` asks to capture: an unexpected status's sample). It frames the response
 * (Content-Length, chunked with trailers, close-delimited; no body for HEAD, 204 and 304; 1xx
 * interim responses skipped) and says whether the connection may be reused.
 *
 * @module
 */
import { ChunkedBodyDecoder } from "./http1_chunked.ts";
import { ResponseHeaderFields, startsLikeStatusLine, statusLineCode } from "./http1_head_scan.ts";
import { http2OpeningFrame, mayBeHttp2FrameStart } from "./http2_only.ts";
import type { BodyCapture } from "../body_sample.ts";
import { readsRetryAfter } from "../response/mod.ts";
import type { KeptResponse } from "../kept_response.ts";

/**
 * Longest response head (status line and headers) or chunked trailer section accepted.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Http1ResponseParser, MAX_RESPONSE_HEAD_BYTES } from "./http1_response_parser.ts";
 * assert.equal(new Http1ResponseParser().maxHeadBytes === MAX_RESPONSE_HEAD_BYTES, true);
 * ```
 */
export const MAX_RESPONSE_HEAD_BYTES = 64 * 1024;

const HEAD = 0;
const BODY_LENGTH = 1;
const BODY_CLOSE = 2;
const CHUNKED_BODY = 3;
const DONE = 4;
const FAILED = 5;

const CR = 13;
const LF = 10;

/**
 * Parses one response at a time. Feed it bytes with {@linkcode Http1ResponseParser.execute}
 * until {@linkcode Http1ResponseParser.done} or {@linkcode Http1ResponseParser.failed}; call
 * {@linkcode Http1ResponseParser.finish} when the peer closes; {@linkcode Http1ResponseParser.reset}
 * before the next response. Protocol errors set `failed` and `error`; nothing is thrown.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Http1ResponseParser } from "./http1_response_parser.ts";
 * const bytes = new TextEncoder().encode("HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nhi");
 * const parser = new Http1ResponseParser();
 * parser.reset(false);
 * assert.equal(parser.execute(bytes, 0, bytes.length), 40); // every byte consumed
 * assert.deepEqual([parser.done, parser.status, parser.keepAlive], [true, 200, true]);
 * ```
 */
export class Http1ResponseParser {
  /** Status code of the final response; 0 until its status line is read. */
  status = 0;
  /** Whether the connection may carry another request after this response. */
  keepAlive = true;
  /** What was wrong, when {@linkcode Http1ResponseParser.failed}. */
  error = "";
  /**
   * Set when the response was an HTTP/2 frame instead (a server that speaks only HTTP/2); the
   * parser then also {@linkcode Http1ResponseParser.failed}.
   */
  http2 = false;
  #state = DONE;
  #isHead = false;
  /** Body bytes still to come (Content-Length framing). */
  #remaining = 0;
  /** Bytes of the head read so far. */
  #headBytes = 0;
  /** Bytes of an unfinished head line already searched for its end. */
  #lineScanned = 0;
  #minorVersion = 1;
  /** Where this response's body goes (its first bytes), when it is being captured. */
  #capture: BodyCapture | undefined = undefined;
  /** Where this response's header lines and body go, when its request keeps them. */
  #keep: KeptResponse | undefined = undefined;
  /**
   * Called once per response at the end of its final head (never for a 1xx interim one) with its
   * status: a capture to copy the body's first bytes into, or undefined to count and drop it.
   */
  onFinalStatus: ((status: number) => BodyCapture | undefined) | undefined = undefined;
  readonly #headers = new ResponseHeaderFields();
  readonly #chunkedBody: ChunkedBodyDecoder;

  /** @param maxHeadBytes Longest head (and trailer section) accepted before failing. */
  constructor(readonly maxHeadBytes: number = MAX_RESPONSE_HEAD_BYTES) {
    this.#chunkedBody = new ChunkedBodyDecoder(maxHeadBytes);
  }

  /** True once the whole response has been read. */
  get done(): boolean {
    return this.#state === DONE;
  }

  /** True when the bytes are not a valid response; `error` says why. */
  get failed(): boolean {
    return this.#state === FAILED;
  }

  /**
   * The final response's `Retry-After` delay in seconds, read only for a 429 or 503 (an HTTP date
   * made a delay); NaN when none was read.
   */
  get retryAfterS(): number {
    return this.#headers.retryAfterS;
  }

  /** The capture {@linkcode onFinalStatus} gave this response, if any. */
  get capture(): BodyCapture | undefined {
    return this.#capture;
  }

  /**
   * Prepares for the response to a new request; `isHead`: it was a HEAD (no body); `keep`: where
   * its header lines and body go, when the request keeps them.
   */
  reset(isHead: boolean, keep?: KeptResponse): void {
    this.#isHead = isHead;
    this.status = 0;
    this.error = "";
    this.http2 = false;
    this.#capture = undefined;
    this.#keep = keep;
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
        case BODY_LENGTH: {
          const take = Math.min(this.#remaining, end - pos);
          if (this.#capture !== undefined) this.#capture.add(bytes, pos, pos + take);
          if (this.#keep !== undefined) this.#keep.add(bytes, pos, pos + take);
          pos += take;
          this.#remaining -= take;
          if (this.#remaining === 0) this.#state = DONE;
          break;
        }
        case CHUNKED_BODY: {
          const chunkedBody = this.#chunkedBody;
          pos = chunkedBody.execute(bytes, pos, end);
          if (chunkedBody.done) this.#state = DONE;
          else if (chunkedBody.failed) this.#fail(chunkedBody.error);
          break;
        }
        case BODY_CLOSE:
          if (this.#capture !== undefined) this.#capture.add(bytes, pos, end);
          if (this.#keep !== undefined) this.#keep.add(bytes, pos, end);
          return end;
        default: // DONE, FAILED
          return pos;
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
    this.#headers.clear();
  }

  #fail(reason: string): number {
    this.#state = FAILED;
    this.error = reason;
    this.keepAlive = false;
    return -1;
  }

  /** Reads one head line starting at `pos`; returns the index after it, or -1 for more bytes. */
  #headLine(bytes: Uint8Array, pos: number, end: number): number {
    // No status line starts with the 0 that starts an HTTP/2 frame: wait for its header, name it.
    if (bytes[pos] === 0 && this.#headBytes === 0 && this.status === 0) {
      return this.#frame(bytes, pos, end);
    }
    let lf = pos + this.#lineScanned;
    while (lf < end && bytes[lf] !== LF) lf++;
    if (lf === end) {
      this.#lineScanned = end - pos;
      if (this.#headBytes + this.#lineScanned > this.maxHeadBytes) {
        return this.#fail(`response head longer than ${this.maxHeadBytes} bytes`);
      }
      if (this.status === 0 && this.#headBytes === 0 && !startsLikeStatusLine(bytes, pos, end)) {
        this.#fail("response does not start with HTTP/");
      }
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
    else {
      const problem = this.#headers.read(bytes, pos, lineEnd);
      if (problem !== "") this.#fail(problem);
      else if (this.#keep !== undefined) this.#keep.headLine(bytes, pos, lineEnd);
    }
    return this.#state === FAILED ? -1 : lf + 1;
  }

  /** The response's first bytes start with 0: an HTTP/2 frame, or at least not HTTP/1. */
  #frame(bytes: Uint8Array, pos: number, end: number): number {
    this.#lineScanned = 0;
    if (mayBeHttp2FrameStart(bytes, pos, end)) return -1;
    const frame = http2OpeningFrame(bytes, pos, end);
    if (frame === undefined) return this.#fail("response does not start with HTTP/");
    this.http2 = true;
    return this.#fail(`an HTTP/2 ${frame} frame instead of an HTTP/1.1 response`);
  }

  /** `HTTP/1.x NNN reason` */
  #statusLine(bytes: Uint8Array, pos: number, lineEnd: number): void {
    const status = statusLineCode(bytes, pos, lineEnd);
    if (status < 0) return void this.#fail("malformed status line");
    if (status < 100) return void this.#fail(`status ${status} is not a valid status`);
    this.status = status;
    this.#minorVersion = bytes[pos + 7] - 48;
    this.#headers.readRetryAfter = readsRetryAfter(status);
  }

  /** The blank line: decides how the body is framed. */
  #endOfHead(): void {
    const status = this.status;
    if (status < 200 && status !== 101) {
      this.status = 0; // an interim response: the final one follows
      this.#keep?.clearHead();
      this.#startHead();
      return;
    }
    if (this.onFinalStatus !== undefined) this.#capture = this.onFinalStatus(status);
    const headers = this.#headers;
    this.keepAlive = this.#minorVersion === 0
      ? headers.connectionKeepAlive && !headers.connectionClose
      : !headers.connectionClose;
    if (this.#isHead || status === 204 || status === 304 || status === 101) {
      if (status === 101) this.keepAlive = false; // the connection now speaks another protocol
      this.#state = DONE;
    } else if (headers.transferEncoding) {
      if (headers.contentLength >= 0) this.keepAlive = false; // both framings: do not reuse
      if (headers.chunked) {
        this.#chunkedBody.start(this.#capture, this.#keep);
        this.#state = CHUNKED_BODY;
      } else this.#closeDelimited();
    } else if (headers.contentLength > 0) {
      this.#remaining = headers.contentLength;
      this.#state = BODY_LENGTH;
    } else if (headers.contentLength === 0) this.#state = DONE;
    else this.#closeDelimited();
  }

  #closeDelimited(): void {
    this.keepAlive = false;
    this.#state = BODY_CLOSE;
  }
}
