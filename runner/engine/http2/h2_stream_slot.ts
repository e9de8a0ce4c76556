/**
 * One stream slot of an HTTP/2 connection, as the dispatcher sees a connection: busy while its
 * stream is in flight, so a request that finds every slot busy waits in the dispatcher's queue,
 * and that wait is counted. `writtenAtMs` is read just before the stream's HEADERS are submitted,
 * after connecting, so a (re)connect is in the response time but not in the service time.
 *
 * How a stream that did not complete is classified: one on a session that received GOAWAY fails as
 * `goaway` (never sent again: whether the server processed it is not known to a load test, and a
 * silent retry would hide it); a RST_STREAM with REFUSED_STREAM is `refused_stream`, any other
 * `rst_stream`; a session that failed gives its transport kind (`reset`, `tls`, `refused` …).
 *
 * @module
 */
import type { ErrorKind } from "../../model/mod.ts";
import { InflightRequest } from "../inflight_request.ts";
import type { Clock, Connection, PreparedRequest, ResponseOutcome } from "../types.ts";
import { H2_CODE, type H2StreamEvents, MALFORMED_RESPONSE } from "./h2_session.ts";
import { type H2Connection, sessionEndKind, type SessionState } from "./h2_connection.ts";
import type { H2Request, H2RequestEncoder } from "./h2_request.ts";
import type { BodyCapture, BodySampler } from "../body_sample.ts";
import { KeptResponse } from "../kept_response.ts";

/** What a slot needs besides its connection. */
export interface H2SlotOptions {
  connection: H2Connection;
  clock: Clock;
  /** Converts a templated request when it is sent (one encoder per run: it keeps the names). */
  encoder: H2RequestEncoder;
  /** Requests converted once per run (the plan's fixed requests), by their prepared object. */
  converted: ReadonlyMap<PreparedRequest, H2Request>;
  /** Whether this slot reports its connection's sockets (one slot per connection does). */
  countsSockets: boolean;
  /** Keeps the first body of each unexpected status, per label and code. */
  bodySampler?: BodySampler;
}

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

/** A stream slot: one request at a time on a shared HTTP/2 connection. */
export class H2StreamSlot implements Connection {
  readonly #o: H2SlotOptions;
  readonly #req = new InflightRequest();
  #seq = 0;
  #status = 0;
  /** The stream in flight, on the session of `#state`; 0 when none. */
  #streamId = 0;
  /** Set while the session opens the stream, before its id is known. */
  #opening = false;
  #state: SessionState | undefined;
  #closed = false;
  /** The request in flight, and where its body goes when its status is sampled. */
  #request: PreparedRequest | undefined;
  #capture: BodyCapture | undefined;

  constructor(options: H2SlotOptions) {
    this.#o = options;
    options.connection.attach();
  }

  /** True while a request is in flight. */
  get busy(): boolean {
    return this.#req.busy;
  }

  /** Sockets this slot's connection opened (counted on one slot per connection). */
  get socketsOpened(): number {
    return this.#o.countsSockets ? this.#o.connection.socketsOpened : 0;
  }

  /** Connects the slot's connection ahead of the first request. */
  open(): Promise<ErrorKind | undefined> {
    return this.#o.connection.open();
  }

  /** Sends the request on a stream of the connection, connecting first if needed. Never rejects. */
  send(request: PreparedRequest): Promise<ResponseOutcome> {
    const outcome = this.#req.begin();
    const seq = ++this.#seq;
    const state = this.#o.connection.usable;
    if (state !== undefined) this.#start(state, request);
    else void this.#connectThenStart(seq, request);
    return outcome;
  }

  /** Fails the in-flight request with `kind` and resets its stream; the connection stays. */
  abort(kind: ErrorKind): void {
    if (!this.#req.busy) return;
    this.#seq++;
    if (this.#streamId !== 0) this.#state!.session.cancel(this.#streamId);
    this.#streamId = 0;
    this.#req.settle(0, kind, this.#o.clock.nowMs());
  }

  /** Fails an in-flight request as `other`; the last slot of a connection closes it. */
  close(): void {
    this.abort("other");
    if (this.#closed) return;
    this.#closed = true;
    this.#o.connection.release();
  }

  async #connectThenStart(seq: number, request: PreparedRequest): Promise<void> {
    const startedMs = this.#o.clock.nowMs();
    const failed = await this.#o.connection.open();
    if (seq !== this.#seq) return; // aborted meanwhile
    // The wait for the connection (a reconnect after GOAWAY or a close) is the server's connect
    // time, not the generator's lag, as on HTTP/1.1.
    this.#req.connected(this.#o.clock.nowMs() - startedMs);
    const state = this.#o.connection.usable;
    if (failed !== undefined || state === undefined) {
      this.#req.settle(0, failed ?? this.#o.connection.endKind, this.#o.clock.nowMs());
      return;
    }
    this.#start(state, request);
  }

  /**
   * The slot's one listener for its streams, whichever is in flight: a stream given up is
   * cancelled, after which its session reports nothing more of it (no object per request).
   */
  readonly #events: H2StreamEvents & { kept: KeptResponse | undefined } = {
    kept: undefined,
    onResponse: (status, octets, retryAfterS) => {
      this.#status = status;
      this.#req.bytesReceived += octets;
      this.#req.retryAfterS = retryAfterS;
      // This stream's first byte: its HEADERS, at the read that brought them (no clock read).
      this.#req.arrived(Math.max(this.#req.writtenAtMs, this.#state!.session.nowMs));
      const r = this.#request;
      const sampler = this.#o.bodySampler;
      if (sampler !== undefined && r !== undefined) {
        this.#capture = sampler.capture(r.labelIndex, r.expect, status);
      }
    },
    onInterim: () => {
      this.#req.arrived(Math.max(this.#req.writtenAtMs, this.#state!.session.nowMs));
    },
    onData: (bytes, data, from) => {
      this.#req.bytesReceived += bytes;
      if (this.#capture !== undefined) this.#capture.add(data, from, from + bytes);
      const kept = this.#events.kept;
      if (kept !== undefined) kept.add(data, from, from + bytes);
    },
    onClose: (rstCode, streamId, sessionGone) => {
      // While `request` runs, its stream may close at once (its connection failing on the write).
      if (this.#opening || streamId === this.#streamId) this.#closeStream(rstCode, sessionGone);
    },
  };

  #start(state: SessionState, request: PreparedRequest): void {
    const h2 = this.#o.converted.get(request) ?? this.#o.encoder.encode(request.bytes);
    this.#status = 0;
    this.#request = request;
    this.#capture = undefined;
    const keep = request.keepBodyBytes;
    this.#req.kept = this.#events.kept = keep ? new KeptResponse(keep) : undefined;
    this.#state = state;
    this.#req.written(this.#o.clock.nowMs(), h2.bytes);
    let id = 0;
    this.#opening = true;
    try {
      id = state.session.request(h2.block, h2.body, this.#events);
    } catch {
      // The session closed between the check and the request: nothing reached the server.
      this.#req.writtenAtMs = -1;
      this.#req.settle(0, sessionEndKind(state), this.#o.clock.nowMs());
    } finally {
      this.#opening = false;
    }
    if (this.#req.busy) this.#streamId = id; // not closed already
  }

  #closeStream(rstCode: number, sessionGone: boolean): void {
    this.#streamId = 0;
    if (!this.#req.busy) return;
    const complete = rstCode === H2_CODE.noError && this.#status > 0;
    const kind = complete ? undefined : streamErrorKind(this.#state!, rstCode, sessionGone);
    // At the response's arrival (the session's read time), never before the stream was written.
    const atMs = Math.max(this.#req.writtenAtMs, this.#state!.session.nowMs);
    const capture = this.#capture;
    this.#capture = undefined;
    if (complete && capture !== undefined) {
      this.#o.bodySampler!.keep(this.#request!.labelIndex, this.#status, capture, atMs);
    }
    this.#req.settle(complete ? this.#status : 0, kind, atMs);
  }
}
