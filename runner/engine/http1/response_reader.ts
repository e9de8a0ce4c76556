/**
 * The read side every HTTP/1.1 connection shares, whatever its sockets: one reusable read buffer
 * and the incremental parser. Body bytes are counted by the parser and overwritten by the next
 * read; only an unfinished head line is kept, moved to the buffer's start, and the buffer grows
 * only to hold a long head line (the parser bounds the head). With a {@linkcode BodySampler}, the
 * first bytes of a body whose status the request did not expect are kept once per label and code
 * (body_sample.ts).
 *
 * @module
 */
import { Http1ResponseParser } from "./http1_response_parser.ts";
import type { InflightRequest } from "../inflight_request.ts";
import type { BodySampler } from "../body_sample.ts";
import type { PreparedRequest } from "../types.ts";
import { KeptResponse } from "../kept_response.ts";

/** Bytes of the per-connection read buffer; it grows only to hold a long head line. */
export const READ_BUFFER_BYTES = 16 * 1024;

/** What a read did: more is needed, the response is done, or it is not HTTP. */
export const READ_STEP = {
  more: 0,
  /** Done, and the connection can carry the next request. */
  done: 1,
  /** Done, but the socket must close (not keep-alive, or bytes past the response). */
  doneClose: 2,
  failed: 3,
} as const;

/** One of {@linkcode READ_STEP}'s values. */
export type ReadStep = typeof READ_STEP[keyof typeof READ_STEP];

/**
 * A connection's read buffer and parser.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { READ_STEP, ResponseReader } from "./response_reader.ts";
 * const reader = new ResponseReader();
 * reader.start(false);
 * const bytes = new TextEncoder().encode("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok");
 * reader.space().set(bytes);
 * assert.equal(reader.received(bytes.length) === READ_STEP.done, true);
 * assert.equal(reader.parser.status, 200);
 * ```
 */
export class ResponseReader {
  readonly parser: Http1ResponseParser = new Http1ResponseParser();
  /** Allocated on the first read, so connections that never carry a request cost no buffer. */
  #buffer = new Uint8Array(0);
  /** Bytes of an unfinished head line kept at the start of the buffer. */
  #buffered = 0;
  readonly #onHttp2Reply: (() => void) | undefined;
  readonly #sampler: BodySampler | undefined;
  /** The request being answered, when its body may be sampled. */
  #request: Pick<PreparedRequest, "labelIndex" | "expect"> | undefined = undefined;
  /**
   * Where the response to the request last started keeps its head and body, when the request
   * asked (`keepBodyBytes`): a new one per such request, handed on with its outcome.
   */
  kept: KeptResponse | undefined = undefined;

  /**
   * An empty reader; its buffer is allocated on the first read.
   *
   * @param onHttp2Reply Called when {@linkcode ResponseReader.take} fails a request because the
   * server answered with HTTP/2 frames (the parser's `http2`).
   * @param sampler Keeps the first body of each unexpected status (per label and code).
   */
  constructor(onHttp2Reply?: () => void, sampler?: BodySampler) {
    this.#onHttp2Reply = onHttp2Reply;
    this.#sampler = sampler;
    if (sampler !== undefined) {
      this.parser.onFinalStatus = (status) => {
        const r = this.#request;
        return r === undefined ? undefined : sampler.capture(r.labelIndex, r.expect, status);
      };
    }
  }

  /**
   * Prepares for the next response (HEAD responses have no body); `request`, the one it answers,
   * lets a sampler keep its body when its status is unexpected, and asks for its head and body
   * to be kept ({@linkcode kept}) when it sets `keepBodyBytes`.
   */
  start(
    isHead: boolean,
    request?: Pick<PreparedRequest, "labelIndex" | "expect" | "keepBodyBytes">,
  ): void {
    const keep = request?.keepBodyBytes;
    this.kept = keep ? new KeptResponse(keep) : undefined;
    this.parser.reset(isHead, this.kept);
    this.#request = request;
  }

  /** Forgets buffered bytes (the socket they came from is gone). */
  clear(): void {
    this.#buffered = 0;
  }

  /** Where the next read goes: the buffer after any kept head line. */
  space(): Uint8Array {
    if (this.#buffer.length === 0) this.#buffer = new Uint8Array(READ_BUFFER_BYTES);
    const buffered = this.#buffered;
    return buffered === 0 ? this.#buffer : this.#buffer.subarray(buffered);
  }

  /** Takes `n` bytes just read into {@linkcode space} and says what they did. */
  received(n: number): ReadStep {
    const end = this.#buffered + n;
    const parser = this.parser;
    const pos = parser.execute(this.#buffer, 0, end);
    if (parser.done) {
      this.#buffered = 0;
      return !parser.keepAlive || pos < end ? READ_STEP.doneClose : READ_STEP.done;
    }
    if (parser.failed) return READ_STEP.failed;
    if (pos < end) { // an unfinished head line: keep it at the start of the buffer
      this.#buffer.copyWithin(0, pos, end);
      this.#buffered = end - pos;
      if (this.#buffered === this.#buffer.length) {
        const grown = new Uint8Array(this.#buffer.length * 2);
        grown.set(this.#buffer);
        this.#buffer = grown;
      }
    } else {
      this.#buffered = 0;
    }
    return READ_STEP.more;
  }

  /**
   * Takes `n` bytes just read for `request` (the first such read sets its first byte's time,
   * `arrivedAtMs`), settling it once its response is complete (or
   * `protocol` when the bytes are not HTTP/1, HTTP/2 frames included) at `arrivedAtMs`, when those bytes arrived (the read's
   * time, or the kernel's receive timestamp). Returns undefined while more is needed, else whether
   * the socket must close (not HTTP, not keep-alive, or bytes past the response).
   */
  take(request: InflightRequest, n: number, arrivedAtMs: number): boolean | undefined {
    request.arrived(arrivedAtMs); // the first read that carries response bytes: its first byte
    request.bytesReceived += n;
    const step = this.received(n);
    if (step === READ_STEP.more) return undefined;
    if (step === READ_STEP.failed) {
      request.settle(0, "protocol", arrivedAtMs);
      if (this.parser.http2) this.#onHttp2Reply?.();
    } else {
      this.#keepSample(arrivedAtMs);
      request.retryAfterS = this.parser.retryAfterS;
      request.settle(this.parser.status, undefined, arrivedAtMs);
    }
    return step !== READ_STEP.done;
  }

  /**
   * The peer closed the connection at `atMs`: true when that completes the response (its body
   * ran to the close), whose body sample is then kept.
   */
  finishOnClose(atMs: number): boolean {
    if (!this.parser.finish()) return false;
    this.#keepSample(atMs);
    return true;
  }

  /** Hands a completed response's captured body to the sampler. */
  #keepSample(atMs: number): void {
    const capture = this.parser.capture;
    if (capture === undefined) return;
    this.#sampler!.keep(this.#request!.labelIndex, this.parser.status, capture, atMs);
  }
}
