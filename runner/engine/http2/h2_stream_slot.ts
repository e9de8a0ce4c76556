/**
 * One stream slot of an HTTP/2 connection, as the dispatcher sees a connection: busy while its
 * stream is in flight, so a request that finds every slot busy waits in the dispatcher's queue,
 * and that wait is counted. What slots share (connecting, aborting, closing, `writtenAtMs` read
 * just before the stream's HEADERS are submitted): `h2_slot_base.ts`.
 *
 * How a stream that did not complete is classified: one on a session that received GOAWAY fails as
 * `goaway` (never sent again: whether the server processed it is not known to a load test, and a
 * silent retry would hide it); a RST_STREAM with REFUSED_STREAM is `refused_stream`, any other
 * `rst_stream`; a session that failed gives its transport kind (`reset`, `tls`, `refused` …).
 *
 * @module
 */
import type { ErrorKind } from "../../model/mod.ts";
import { H2_CODE, MALFORMED_RESPONSE } from "./h2_session.ts";
import { sessionEndKind, type SessionState } from "./h2_connection.ts";
import type { BodyCapture } from "../body_sample.ts";
import { H2SlotBase, type H2SlotEvents } from "./h2_slot_base.ts";

export type { H2SlotOptions } from "./h2_slot_base.ts";

/**
 * The error kind of a stream that closed without a complete response: `goaway` on a session that
 * received one; the session's failure, or `reset`, when the session went down under the stream;
 * else the server's RST_STREAM: `refused_stream` for REFUSED_STREAM, `rst_stream` for any other
 * code; `protocol` for a stream closed cleanly without a response, or with one that had no valid
 * status.
 */
export function streamErrorKind(
  state: SessionState,
  rstCode: number,
  sessionGone: boolean,
): ErrorKind {
  if (sessionGone || state.goawayLastStreamId >= 0) return sessionEndKind(state);
  if (rstCode === MALFORMED_RESPONSE) return "protocol";
  if (rstCode === H2_CODE.refusedStream) return "refused_stream";
  if (rstCode !== H2_CODE.noError) return "rst_stream";
  return state.failed ?? "protocol";
}

/** A stream slot of HTTP: the response's status, its body counted (and kept when asked for). */
export class H2StreamSlot extends H2SlotBase {
  #status = 0;
  /** Where the body of the request in flight goes when its status is sampled. */
  #capture: BodyCapture | undefined;

  protected readonly events: H2SlotEvents = {
    kept: undefined,
    onResponse: (status, octets, retryAfterS) => {
      this.#status = status;
      this.req.bytesReceived += octets;
      this.req.retryAfterS = retryAfterS;
      // This stream's first byte: its HEADERS, at the read that brought them (no clock read).
      this.req.arrived(this.readAtMs());
      const r = this.request;
      const sampler = this.o.bodySampler;
      if (sampler !== undefined && r !== undefined) {
        this.#capture = sampler.capture(r.labelIndex, r.expect, status);
      }
    },
    onInterim: () => {
      this.req.arrived(this.readAtMs());
    },
    onData: (bytes, data, from) => {
      this.req.bytesReceived += bytes;
      if (this.#capture !== undefined) this.#capture.add(data, from, from + bytes);
      const kept = this.events.kept;
      if (kept !== undefined) kept.add(data, from, from + bytes);
    },
    onClose: this.onStreamClose,
  };

  protected begin(): void {
    this.#status = 0;
    this.#capture = undefined;
  }

  protected settleStream(rstCode: number, sessionGone: boolean): void {
    const complete = rstCode === H2_CODE.noError && this.#status > 0;
    const kind = complete ? undefined : streamErrorKind(this.state!, rstCode, sessionGone);
    // At the response's arrival (the session's read time), never before the stream was written.
    const atMs = this.readAtMs();
    const capture = this.#capture;
    this.#capture = undefined;
    if (complete && capture !== undefined) {
      this.o.bodySampler!.keep(this.request!.labelIndex, this.#status, capture, atMs);
    }
    this.req.settle(complete ? this.#status : 0, kind, atMs);
  }
}
