/**
 * The engine's seams: the clock, prepared requests, connections, what became of a request (its
 * outcome, built by `responseOutcome()` in one shape) and the waker. The dispatcher is written
 * against these so tests can drive it with a fake clock and fake connections.
 *
 * @module
 */
import type { StatusExpectation } from "../plan/mod.ts";
import type { ErrorKind } from "../model/mod.ts";
import type { ResponseHeaders } from "./kept_response.ts";

/** Monotonic time in milliseconds (fractional), on the engine thread's `performance.now()` base. */
export interface Clock {
  nowMs(): number;
}

/** The real clock. */
export const PERFORMANCE_CLOCK: Clock = { nowMs: () => performance.now() };

/** One plan request turned into the bytes sent on the wire, built once before the run. */
export interface PreparedRequest {
  /** Index of the request in the plan's `requests` (its label). */
  labelIndex: number;
  /** Request line, headers and body. */
  bytes: Uint8Array;
  /** HEAD: the response has no body whatever its headers say. */
  isHead: boolean;
  timeoutMs: number;
  expect: StatusExpectation;
  /**
   * Keep the response body, up to this many bytes, in {@linkcode ResponseOutcome.body} (a label
   * with checks or captures); absent or 0: the body is counted and dropped, as always.
   */
  keepBodyBytes?: number;
  /**
   * Where the `traceparent` value's 55 octets are in `bytes`, patched
   * per send with the request's ids (`trace: true`); -1 or absent: the request carries none.
   */
  traceAt?: number;
  /**
   * A traced send's copy of a fixed request (its bytes patched per send; engine/trace_stamp.ts):
   * the request it copies, whose conversions (an HTTP/2 header block) it shares.
   */
  copyOf?: PreparedRequest;
}

/**
 * Where the dispatcher takes the bytes of each request it sends, when they differ from request to
 * request (a templated plan): rendered ahead of the schedule, so nothing is rendered on the send
 * path.
 */
export interface RequestSource {
  /** The request to send as the schedule's request `n` (label `labelIndex`), due now. */
  take(n: number, labelIndex: number): PreparedRequest;
  /**
   * The request completed. Its buffer may be reused, unless it failed (a write may still hold
   * its bytes).
   */
  release(request: PreparedRequest, failed: boolean): void;
  /** Renders upcoming requests while the run loop has time; called before it sleeps. */
  renderAhead(): void;
}

/** What became of one request on a connection. Failures are outcomes, never exceptions. */
export interface ResponseOutcome {
  /** HTTP status, or 0 when no complete response arrived. */
  status: number;
  /** Set when the request failed: a transport error, a protocol error, a timeout. */
  error?: ErrorKind;
  bytesSent: number;
  bytesReceived: number;
  /** Clock time just before the request's first byte was written (after connecting). */
  writtenAtMs: number;
  /** Clock time when the response was complete or the failure was seen. */
  completedAtMs: number;
  /**
   * How long this request waited for its connection to be opened (TCP connect, and the TLS
   * handshake over https), before its first write; 0 when it found the connection open (absent
   * where a connection does not tell). It is the server's time, not the generator's lateness.
   */
  connectMs?: number;
  /** Clock time when the response's first byte arrived (absent when none arrived). */
  firstByteAtMs?: number;
  /** The body as read, at most `keepBodyBytes` of it, when the request asked for it. */
  body?: Uint8Array;
  /** True when the body was longer than `keepBodyBytes` and `body` holds its start. */
  bodyCut?: boolean;
  /** The whole body's length in bytes (kept or not), set with `body`. */
  bodyBytes?: number;
  /** The response's header fields, kept with its body when the request asked for its body. */
  headers?: ResponseHeaders;
  /** A `Retry-After` header's delay in seconds (an HTTP date made a delay), when one came. */
  retryAfterS?: number;
  /** A gRPC call's response messages read (a server stream's count; 1 for a unary reply). */
  messages?: number;
}

/**
 * The outcome of one send: `status` 0 and an `error` kind when it failed; `connectMs`, how long
 * the request waited for its connection to open (0: it was open); `firstByteAtMs`, when its
 * response's first byte arrived; `retryAfterS`, a 429's or 503's `Retry-After` in seconds.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { responseOutcome } from "./types.ts";
 * assert.equal(responseOutcome(0, "reset", 120, 0, 10.5, 11.25).error, "reset");
 * ```
 */
export function responseOutcome(
  status: number,
  error: ErrorKind | undefined,
  bytesSent: number,
  bytesReceived: number,
  writtenAtMs: number,
  completedAtMs: number,
  connectMs = 0,
  firstByteAtMs: number | undefined = undefined,
  retryAfterS: number | undefined = undefined,
): ResponseOutcome {
  // Every outcome has the same fields, so the objects keep one shape.
  return {
    status,
    error,
    bytesSent,
    bytesReceived,
    writtenAtMs,
    completedAtMs,
    connectMs,
    firstByteAtMs,
    retryAfterS,
    // A kept response's (inflight_request.ts): present, unset, on every outcome.
    body: undefined,
    bodyBytes: undefined,
    bodyCut: undefined,
    headers: undefined,
    // A gRPC call's (runner/engine/grpc/): present, unset, on every outcome.
    messages: undefined,
  };
}

/** One HTTP/1.1 connection carrying one request at a time (no pipelining). */
export interface Connection {
  /** True while a request is in flight. */
  readonly busy: boolean;
  /**
   * Connects if needed (a closed or never-opened connection reconnects), writes the request and
   * reads its response. Never rejects.
   */
  send(request: PreparedRequest): Promise<ResponseOutcome>;
  /**
   * Connects ahead of the first request (optional); resolves with the failure kind, or undefined
   * when connected.
   */
  open?(): Promise<ErrorKind | undefined>;
  /** Fails the in-flight request with `kind` (e.g. "timeout") and closes the socket. */
  abort(kind: ErrorKind): void;
  /** Closes the connection; an in-flight request completes as an error. */
  close(): void;
  /** Sockets this connection opened so far, reconnects included (optional). */
  readonly socketsOpened?: number;
}

/** Sleeps the engine until a deadline with sub-millisecond precision (see timing_worker.ts). */
export interface Waker {
  /**
   * Resolves at `deadlineMs` (engine clock) or soon after, or earlier when {@linkcode interrupt}
   * is called. Only one sleep is pending at a time; a new call replaces the deadline. `eager`:
   * requests are waiting for a connection, so a waker that batches its wakes (the epoll loop)
   * serves a ready socket at once instead of after its gap.
   */
  sleepUntil(deadlineMs: number, eager?: boolean): Promise<void>;
  /** Wakes a pending sleep now. */
  interrupt(): void;
  /** Stops the waker (terminates its worker). */
  close(): void;
  /**
   * True for a waker whose sleeps block the thread while running I/O (the epoll loop): it must
   * not be re-armed from an outcome's callback; the run loop's next sleep picks the deadline.
   */
  readonly blocking?: boolean;
  /**
   * Told, as requests are taken, the mean interval between the sends lately (ms; scheduled
   * requests and journeys' steps, counted: timing/send_pace.ts): a waker that batches its wakes
   * (the epoll loop) batches only when sends come that fast.
   */
  pace?(sendIntervalMs: number): void;
}

/** One completed request, times in ms from the run's start. */
export interface Completion {
  stageIndex: number;
  labelIndex: number;
  /** Intended send time. */
  fireMs: number;
  /**
   * The schedule's request index n (a journey's: the n that started it) and the journey step
   * (0 for a single request): together they name the request, and its trace id. The dispatcher
   * always sets them.
   */
  n?: number;
  step?: number;
  /** Actual write, or NaN when the request was never written. */
  writtenMs: number;
  completedMs: number;
  status: number;
  error?: ErrorKind;
  bytesSent: number;
  bytesReceived: number;
  /** When the response's first byte arrived (ms from the run's start); NaN or absent when none. */
  firstByteMs?: number;
  /** A 429's or 503's `Retry-After` in seconds; NaN or absent when none came. */
  retryAfterS?: number;
  /** A gRPC call's response messages read; absent for HTTP. */
  messages?: number;
  /**
   * Set when the label's checks were evaluated on the response: per check of the label (in the
   * plan's order), 1 when it failed, else 0. A scratch array, read at once.
   */
  checkFailed?: Uint8Array;
}

/**
 * Where the engine writes what it measures, as it happens (times in ms from the run's start);
 * the recorder implements it. The dispatcher knows only this.
 */
export interface RecordSink {
  /** A request fell due (taken from the schedule). */
  scheduled(fireMs: number, stageIndex: number, labelIndex: number): void;
  /** How late the dispatcher took a due request. */
  dispatchLag(lagMs: number, stageIndex: number): void;
  /**
   * How late a request was written on a free connection, its connect aside: a request of the
   * schedule (a journey's first step included).
   */
  sendLag(lagMs: number, stageIndex: number): void;
  /**
   * How late a journey's later step was written on a free connection after its due time (its
   * previous step's completion plus think), its connect aside.
   */
  stepLag(lagMs: number, stageIndex: number): void;
  /** How long a request waited for a connection before it was written (its connect aside). */
  queueWait(waitMs: number, stageIndex: number): void;
  /** How long a request waited for its connection to open (a reconnect) before it was written. */
  connectTime(connectMs: number, stageIndex: number): void;
  /** A request completed, answered or failed. Called with a scratch record read at once. */
  complete(c: Completion): void;
}
