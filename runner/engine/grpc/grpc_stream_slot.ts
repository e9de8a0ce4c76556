/**
 * A stream slot for gRPC calls: an HTTP/2 stream slot (`H2SlotBase`: connecting, aborting,
 * closing as HTTP's) that reads its response as gRPC. The outcome's `status` is the
 * `grpc-status` n of the trailers (or of a trailers-only response's HEADERS) as
 * `GRPC_STATUS_BASE + n`, with no error kind: whether it was expected is the recorder's call,
 * as for an HTTP status. Otherwise:
 * - an HTTP `:status` other than 200 without `grpc-status` (a proxy's 503) is that HTTP status;
 * - a 200 that ended without a `grpc-status`, with one that is not a number, or with broken
 *   message framing (`grpc_message_reader.ts`) is a `protocol` error; a stream whose framing
 *   broke is reset (RST_STREAM CANCEL) at once;
 * - a reset, GOAWAY, failed session or timeout fails as on HTTP/2 (`streamErrorKind`).
 *
 * The first answer of each unexpected status (per label) is sampled as HTTP's are: a gRPC
 * status's sample is its `grpc-message`; an HTTP answer's, its body.
 *
 * `firstByteAtMs` is when the first message completed (a unary call's reply; a server stream's
 * first message), at the read that brought it; the outcome's `messages` counts them; a request
 * that keeps its response keeps its first message (the prefix off) and its head's fields.
 *
 * @module
 */
import { GRPC_STATUS_BASE } from "../../model/mod.ts";
import { H2_CODE, H2SlotBase, type H2SlotEvents, streamErrorKind } from "../http2/mod.ts";
import { GrpcMessageReader } from "./grpc_message_reader.ts";
import type { BodyCapture } from "../body_sample.ts";

/**
 * A `grpc-status` value as its code: decimal digits, at most 10 of them (codes go to 2^31 - 1);
 * -1 when absent or not a number.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { grpcCode } from "./grpc_stream_slot.ts";
 * assert.equal(grpcCode("14"), 14);
 * assert.equal(grpcCode(""), -1);
 * assert.equal(grpcCode("OK"), -1);
 * ```
 */
export function grpcCode(text: string): number {
  const n = text.length;
  if (n === 0 || n > 10) return -1;
  let code = 0;
  for (let i = 0; i < n; i++) {
    const digit = text.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return -1;
    code = code * 10 + digit;
  }
  return code > 0x7fffffff ? -1 : code;
}

/**
 * A `grpc-message` as its text: percent-encoded octets decoded as UTF-8 (gRPC's encoding); a
 * malformed escape leaves the text as sent.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { percentDecoded } from "./grpc_stream_slot.ts";
 * assert.equal(percentDecoded("no%20such%20user"), "no such user");
 * assert.equal(percentDecoded("100%"), "100%");
 * ```
 */
export function percentDecoded(text: string): string {
  if (!text.includes("%")) return text;
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** A stream slot whose responses are gRPC calls'. */
export class GrpcStreamSlot extends H2SlotBase {
  /** The HTTP `:status` of the response's head (0 before it). */
  #httpStatus = 0;
  /** The trailers' `grpc-status` and `grpc-message` as sent ("" when none came). */
  #grpcStatus = "";
  #grpcMessage = "";
  /** Where the body of a non-200 answer goes when its status is sampled. */
  #capture: BodyCapture | undefined;
  readonly #reader = new GrpcMessageReader();

  protected readonly events: H2SlotEvents = {
    kept: undefined,
    grpc: true,
    onResponse: (status, octets, retryAfterS) => {
      this.#httpStatus = status;
      this.req.bytesReceived += octets;
      this.req.retryAfterS = retryAfterS;
      // Not a gRPC answer (a proxy's page): its body is sampled as an HTTP one's.
      const r = this.request!;
      if (status !== 200) {
        this.#capture = this.o.bodySampler?.capture(r.labelIndex, r.expect, status);
      }
    },
    onData: (bytes, data, from) => {
      this.req.bytesReceived += bytes;
      if (this.#httpStatus !== 200) return void this.#capture?.add(data, from, from + bytes);
      // The first message's last octet: the call's first byte, as its reply is what it awaits.
      const reader = this.#reader;
      if (reader.feed(data, from, from + bytes)) this.req.arrived(this.readAtMs());
      // Broken framing: nothing more of this stream is worth reading.
      if (reader.broken !== "") this.giveUp("protocol", this.readAtMs(), reader.messages);
    },
    onTrailers: (grpcStatus, grpcMessage, trailerOctets) => {
      this.#grpcStatus = grpcStatus;
      this.#grpcMessage = grpcMessage;
      this.req.bytesReceived += trailerOctets;
    },
    onClose: this.onStreamClose,
  };

  protected begin(): void {
    this.#httpStatus = 0;
    this.#grpcStatus = this.#grpcMessage = "";
    this.#capture = undefined;
    this.#reader.reset(this.events.kept);
  }

  protected settleStream(rstCode: number, sessionGone: boolean): void {
    const atMs = this.readAtMs();
    const messages = this.#reader.messages;
    if (rstCode !== H2_CODE.noError || this.#httpStatus === 0) {
      this.req.settle(0, streamErrorKind(this.state!, rstCode, sessionGone), atMs, messages);
      return;
    }
    const code = grpcCode(this.#grpcStatus);
    if (code < 0) {
      // No call status: an HTTP answer (a proxy's) stands as one; a 200 broke the protocol.
      if (this.#httpStatus !== 200 && this.#grpcStatus === "") {
        this.#sample(this.#httpStatus, this.#capture, atMs);
        this.req.settle(this.#httpStatus, undefined, atMs, messages);
      } else this.req.settle(0, "protocol", atMs, messages);
      return;
    }
    if (!this.#reader.end()) return this.req.settle(0, "protocol", atMs, messages);
    const status = GRPC_STATUS_BASE + code;
    const r = this.request!;
    const capture = this.o.bodySampler?.capture(r.labelIndex, r.expect, status);
    if (capture !== undefined) {
      // An unexpected status's sample is its grpc-message, percent-decoded (gRPC sends no body).
      const text = new TextEncoder().encode(percentDecoded(this.#grpcMessage));
      capture.add(text, 0, text.length);
    }
    this.#sample(status, capture, atMs);
    this.req.settle(status, undefined, atMs, messages);
  }

  /** Keeps `capture`, the sample of an unexpected `status`, when one was taken. */
  #sample(status: number, capture: BodyCapture | undefined, atMs: number): void {
    this.#capture = undefined;
    if (capture !== undefined) {
      this.o.bodySampler!.keep(this.request!.labelIndex, status, capture, atMs);
    }
  }
}
