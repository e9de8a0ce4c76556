/**
 * What every stream slot of an HTTP/2 connection shares, whatever it reads of its responses: as
 * the dispatcher sees a connection, busy while its stream is in flight, connecting first when
 * its connection is down, giving a stream up (`abort`) and releasing the connection (`close`).
 * `writtenAtMs` is read just before the stream's HEADERS are submitted, after connecting, so a
 * (re)connect is in the response time but not in the service time. A slot kind (HTTP's
 * `H2StreamSlot`, gRPC's in runner/engine/grpc/) adds its stream listener, what it resets per
 * request, and how a closed stream settles.
 *
 * @module
 */
import type { ErrorKind } from "../../model/mod.ts";
import { InflightRequest } from "../inflight_request.ts";
import type { Clock, Connection, PreparedRequest, ResponseOutcome } from "../types.ts";
import type { H2StreamEvents } from "./h2_session.ts";
import { type H2Connection, sessionEndKind, type SessionState } from "./h2_connection.ts";
import type { H2Request, H2RequestEncoder } from "./h2_request.ts";
import { TRACEPARENT_BYTES } from "../../schedule/mod.ts";
import type { BodySampler } from "../body_sample.ts";
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

/** A slot's stream listener, and where its kept response goes. */
export type H2SlotEvents = H2StreamEvents & { kept: KeptResponse | undefined };

/** A stream slot: one request at a time on a shared HTTP/2 connection. */
export abstract class H2SlotBase implements Connection {
  protected readonly o: H2SlotOptions;
  protected readonly req = new InflightRequest();
  #seq = 0;
  /** The stream in flight, on the session of `state`; 0 when none. */
  #streamId = 0;
  /** Set while the session opens the stream, before its id is known. */
  #opening = false;
  /** The session the request in flight runs on. */
  protected state: SessionState | undefined;
  #closed = false;
  /** The request in flight. */
  protected request: PreparedRequest | undefined;
  /**
   * The slot's one listener for its streams, whichever is in flight: a stream given up is
   * cancelled, after which its session reports nothing more of it (no object per request). Its
   * `onClose` is {@linkcode onStreamClose}.
   */
  protected abstract readonly events: H2SlotEvents;

  constructor(options: H2SlotOptions) {
    this.o = options;
    options.connection.attach();
  }

  /** True while a request is in flight. */
  get busy(): boolean {
    return this.req.busy;
  }

  /** Sockets this slot's connection opened (counted on one slot per connection). */
  get socketsOpened(): number {
    return this.o.countsSockets ? this.o.connection.socketsOpened : 0;
  }

  /** Connects the slot's connection ahead of the first request. */
  open(): Promise<ErrorKind | undefined> {
    return this.o.connection.open();
  }

  /** Sends the request on a stream of the connection, connecting first if needed. Never rejects. */
  send(request: PreparedRequest): Promise<ResponseOutcome> {
    const outcome = this.req.begin();
    const seq = ++this.#seq;
    const state = this.o.connection.usable;
    if (state !== undefined) this.#start(state, request);
    else void this.#connectThenStart(seq, request);
    return outcome;
  }

  /** Fails the in-flight request with `kind` and resets its stream; the connection stays. */
  abort(kind: ErrorKind): void {
    this.giveUp(kind, this.o.clock.nowMs());
  }

  /**
   * Fails the in-flight request with `kind` at `atMs` and resets its stream (RST_STREAM CANCEL);
   * `messages`: a gRPC call's messages read.
   */
  protected giveUp(kind: ErrorKind, atMs: number, messages?: number): void {
    if (!this.req.busy) return;
    this.#seq++;
    if (this.#streamId !== 0) this.state!.session.cancel(this.#streamId);
    this.#streamId = 0;
    this.req.settle(0, kind, atMs, messages);
  }

  /** Fails an in-flight request as `other`; the last slot of a connection closes it. */
  close(): void {
    this.abort("other");
    if (this.#closed) return;
    this.#closed = true;
    this.o.connection.release();
  }

  /** The session's read time, never before the stream was written: when a response part came. */
  protected readAtMs(): number {
    return Math.max(this.req.writtenAtMs, this.state!.session.nowMs);
  }

  /** Resets what the slot reads of one response, as `request` starts (its `kept` is set). */
  protected abstract begin(request: PreparedRequest): void;

  /** The stream in flight closed (`rstCode` as `onClose` gives it) and its request is busy. */
  protected abstract settleStream(rstCode: number, sessionGone: boolean): void;

  /** The listener's `onClose`: settles the request in flight when it is this stream's. */
  protected readonly onStreamClose = (
    rstCode: number,
    streamId: number,
    sessionGone: boolean,
  ): void => {
    // While `request` runs, its stream may close at once (its connection failing on the write).
    if (!this.#opening && streamId !== this.#streamId) return;
    this.#streamId = 0;
    if (this.req.busy) this.settleStream(rstCode, sessionGone);
  };

  async #connectThenStart(seq: number, request: PreparedRequest): Promise<void> {
    const startedMs = this.o.clock.nowMs();
    const failed = await this.o.connection.open();
    if (seq !== this.#seq) return; // aborted meanwhile
    // The wait for the connection (a reconnect after GOAWAY or a close) is the server's connect
    // time, not the generator's lag, as on HTTP/1.1.
    this.req.connected(this.o.clock.nowMs() - startedMs);
    const state = this.o.connection.usable;
    if (failed !== undefined || state === undefined) {
      this.req.settle(0, failed ?? this.o.connection.endKind, this.o.clock.nowMs());
      return;
    }
    this.#start(state, request);
  }

  /**
   * The request as HTTP/2 sends it: converted once before the run (a traced send's copy of a
   * fixed request shares its block, whose `traceparent` it patches: the session copies the block
   * into its frames at once), or converted now (a rendered request).
   */
  #h2Of(request: PreparedRequest): H2Request {
    const fixed = request.copyOf ?? request;
    const h2 = this.o.converted.get(fixed);
    if (h2 === undefined) return this.o.encoder.encode(request.bytes);
    const at = request.traceAt ?? -1;
    if (fixed !== request && at >= 0 && h2.traceAt >= 0) {
      // Octet by octet: no view made per send.
      const from = request.bytes, into = h2.block, to = h2.traceAt;
      for (let i = 0; i < TRACEPARENT_BYTES; i++) into[to + i] = from[at + i];
    }
    return h2;
  }

  #start(state: SessionState, request: PreparedRequest): void {
    const h2 = this.#h2Of(request);
    this.request = request;
    const keep = request.keepBodyBytes;
    this.req.kept = this.events.kept = keep ? new KeptResponse(keep) : undefined;
    this.begin(request);
    this.state = state;
    this.req.written(this.o.clock.nowMs(), h2.bytes);
    let id = 0;
    this.#opening = true;
    try {
      id = state.session.request(h2.block, h2.body, this.events);
    } catch {
      // The session closed between the check and the request: nothing reached the server.
      this.req.writtenAtMs = -1;
      this.req.settle(0, sessionEndKind(state), this.o.clock.nowMs());
    } finally {
      this.#opening = false;
    }
    if (this.req.busy) this.#streamId = id; // not closed already
  }
}
