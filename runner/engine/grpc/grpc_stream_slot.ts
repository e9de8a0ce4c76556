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
 * `firstByteAtMs` is when the first message completed (a unary call's reply; a server stream's
 * first message), at the read that brought it; the outcome's `messages` counts them; a request
 * that keeps its response keeps its first message (the prefix off) and its head's fields.
 *
 * @module
 */
import { GRPC_STATUS_BASE } from "../../model/mod.ts";
import { H2_CODE, H2SlotBase, type H2SlotEvents, streamErrorKind } from "../http2/mod.ts";
import { GrpcMessageReader } from "./grpc_message_reader.ts";

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

/** A stream slot whose responses are gRPC calls'. */
export class GrpcStreamSlot extends H2SlotBase {
  /** The HTTP `:status` of the response's head (0 before it). */
  #httpStatus = 0;
  /** The trailers' `grpc-status` as sent ("" when none came). */
  #grpcStatus = "";
  readonly #reader = new GrpcMessageReader();

  protected readonly events: H2SlotEvents = {
    kept: undefined,
    grpc: true,
    onResponse: (status, octets, retryAfterS) => {
      this.#httpStatus = status;
      this.req.bytesReceived += octets;
      this.req.retryAfterS = retryAfterS;
    },
    onData: (bytes, data, from) => {
      this.req.bytesReceived += bytes;
      if (this.#httpStatus !== 200) return; // not a gRPC answer (a proxy's page): counted only
      // The first message's last octet: the call's first byte, as its reply is what it awaits.
      const reader = this.#reader;
      if (reader.feed(data, from, from + bytes)) this.req.arrived(this.readAtMs());
      // Broken framing: nothing more of this stream is worth reading.
      if (reader.broken !== "") this.giveUp("protocol", this.readAtMs(), reader.messages);
    },
    onTrailers: (grpcStatus, _grpcMessage, trailerOctets) => {
      this.#grpcStatus = grpcStatus;
      this.req.bytesReceived += trailerOctets;
    },
    onClose: this.onStreamClose,
  };

  protected begin(): void {
    this.#httpStatus = 0;
    this.#grpcStatus = "";
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
        this.req.settle(this.#httpStatus, undefined, atMs, messages);
      } else this.req.settle(0, "protocol", atMs, messages);
      return;
    }
    if (!this.#reader.end()) this.req.settle(0, "protocol", atMs, messages);
    else this.req.settle(GRPC_STATUS_BASE + code, undefined, atMs, messages);
  }
}
