/**
 * The one request a connection carries at a time, whatever its sockets: whether one is in flight,
 * how long it waited for its connection to open, when its first byte was written and when its
 * response's first byte arrived, its byte counts, a 429's or 503's `Retry-After`, and the promise `send` returned, settled once with the {@linkcode ResponseOutcome}.
 *
 * @module
 */
import type { ErrorKind } from "../model/mod.ts";
import { type ResponseOutcome, responseOutcome } from "./types.ts";
import type { KeptResponse } from "./kept_response.ts";

/**
 * A connection's in-flight request.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { InflightRequest } from "./inflight_request.ts";
 * const inflight = new InflightRequest();
 * const outcome = inflight.begin();
 * inflight.written(10.5, 120);
 * inflight.settle(200, undefined, 11.25);
 * assert.equal((await outcome).status, 200);
 * ```
 */
export class InflightRequest {
  /** True from `begin` until `settle`. */
  busy = false;
  /** Clock time just before the first write, or -1 before it. */
  writtenAtMs = -1;
  bytesSent = 0;
  bytesReceived = 0;
  /** How long the request waited for its connection to open (ms); 0 when it was open. */
  connectMs = 0;
  /** Clock time the response's first byte arrived, or -1 before it. */
  firstByteAtMs = -1;
  /** The response's `Retry-After` in seconds (429 and 503 only), or NaN. */
  retryAfterS = NaN;
  /** Where its response's body and headers are kept, when its label reads them. */
  kept: KeptResponse | undefined = undefined;
  #resolve: ((outcome: ResponseOutcome) => void) | undefined;
  readonly #captureResolve = (resolve: (outcome: ResponseOutcome) => void) => {
    this.#resolve = resolve;
  };

  /**
   * Starts a request; the promise resolves when it is settled. `kept`: where its response's body
   * and headers go, when its label reads them (the outcome then carries them).
   */
  begin(kept?: KeptResponse): Promise<ResponseOutcome> {
    this.busy = true;
    this.kept = kept;
    this.writtenAtMs = -1;
    this.bytesSent = 0;
    this.bytesReceived = 0;
    this.connectMs = 0;
    this.firstByteAtMs = -1;
    this.retryAfterS = NaN;
    return new Promise<ResponseOutcome>(this.#captureResolve);
  }

  /** Notes that the connection this request waited for opened, `ms` after it began to. */
  connected(ms: number): void {
    this.connectMs = ms;
  }

  /** Notes that response bytes arrived at `atMs`: the first such call sets the first byte's time. */
  arrived(atMs: number): void {
    if (this.firstByteAtMs < 0) this.firstByteAtMs = atMs;
  }

  /** Notes the first write: its time, and the request's size (counted as sent from then on). */
  written(atMs: number, bytes: number): void {
    this.writtenAtMs = atMs;
    this.bytesSent = bytes;
  }

  /**
   * Settles the request at `nowMs`: `status` 0 and an `error` kind when it failed. When nothing
   * was written, the write time is the completion time. `messages`: a gRPC call's response
   * messages read.
   */
  settle(
    status: number,
    error: ErrorKind | undefined,
    nowMs: number,
    messages: number | undefined = undefined,
  ): void {
    const resolve = this.#resolve!;
    this.#resolve = undefined;
    this.busy = false;
    const writtenAtMs = this.writtenAtMs < 0 ? nowMs : this.writtenAtMs;
    const sent = this.writtenAtMs < 0 ? 0 : this.bytesSent;
    const firstByteAtMs = this.firstByteAtMs < 0 ? undefined : this.firstByteAtMs;
    const retryAfterS = this.retryAfterS === this.retryAfterS ? this.retryAfterS : undefined;
    const outcome = responseOutcome(
      status,
      error,
      sent,
      this.bytesReceived,
      writtenAtMs,
      nowMs,
      this.connectMs,
      firstByteAtMs,
      retryAfterS,
    );
    if (messages !== undefined) outcome.messages = messages;
    const kept = this.kept;
    if (kept !== undefined) {
      this.kept = undefined;
      if (error === undefined) keepInto(outcome, kept);
    }
    resolve(outcome);
  }
}

/** The kept body and headers into the outcome of the response they came with. */
function keepInto(outcome: ResponseOutcome, kept: KeptResponse): void {
  outcome.body = kept.body();
  outcome.bodyBytes = kept.bodyBytes;
  if (kept.cut) outcome.bodyCut = true;
  outcome.headers = kept.headers();
}
