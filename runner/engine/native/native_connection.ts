/**
 * An HTTP/1.1 connection on a non-blocking libc socket driven by an {@linkcode EpollLoop}: the
 * native I/O path for plain-HTTP targets on Linux. Same contract as `Http1Connection` (one request
 * at a time, keep-alive, lazy reconnect, failures as outcomes, `writtenAtMs` just before the first
 * write), without Deno's per-read op and promise: a request costs one `send` and, per readiness
 * event, one `recv`, both straight FFI calls on the engine thread.
 *
 * @module
 */
import type { ErrorKind } from "../../model/run_result.ts";
import type { EpollHandler, EpollLoop } from "./epoll_loop.ts";
import { responseOutcome } from "../http1/mod.ts";
import { NET } from "./libc_net.ts";
import { connectOutcome, startConnect } from "./native_socket.ts";
import { InflightRequest } from "../inflight_request.ts";
import { ResponseReader } from "../http1/mod.ts";
import type { Clock, Connection, PreparedRequest, ResponseOutcome } from "../types.ts";

/** Where a {@linkcode NativeConnection} connects: a numeric address (resolved before the run). */
export interface NativeConnectionOptions {
  loop: EpollLoop;
  clock: Clock;
  /** `struct sockaddr_in` / `sockaddr_in6` bytes (see `socketAddress`). */
  socketAddress: Uint8Array;
  /** Called when a socket cannot be created because the process ran out of file descriptors. */
  onOutOfDescriptors?: () => void;
  /** Called when a request fails because the server answered with HTTP/2 frames. */
  onHttp2Reply?: () => void;
}

/** The kind of a failed socket call's errno. */
export function errnoKind(errno: number): ErrorKind {
  if (errno === NET.ECONNREFUSED) return "refused";
  if (errno === NET.ECONNRESET || errno === NET.EPIPE || errno === NET.ECONNABORTED) return "reset";
  return "other";
}

const CLOSED = 0;
const CONNECTING = 1;
const OPEN = 2;

/**
 * One keep-alive connection on a native socket. `send` never rejects.
 */
export class NativeConnection implements Connection, EpollHandler {
  readonly #loop: EpollLoop;
  readonly #clock: Clock;
  readonly #address: Uint8Array;
  readonly #onOutOfDescriptors: (() => void) | undefined;
  readonly #reader: ResponseReader;
  readonly #req = new InflightRequest();
  #fd = -1;
  #state = CLOSED;
  #socketsOpened = 0;
  /** The request being written, and how much of it is written; undefined once all is. */
  #pending: Uint8Array | undefined;
  #written = 0;
  /** Whether the socket is watched for EPOLLOUT (a write is waiting for room). */
  #watchingOut = false;
  /** Set while `open` waits: called with the connect's result. */
  #opened: ((kind: ErrorKind | undefined) => void) | undefined;

  constructor(options: NativeConnectionOptions) {
    this.#loop = options.loop;
    this.#clock = options.clock;
    this.#address = options.socketAddress;
    this.#onOutOfDescriptors = options.onOutOfDescriptors;
    this.#reader = new ResponseReader(options.onHttp2Reply);
  }

  /** True while a request is in flight. */
  get busy(): boolean {
    return this.#req.busy;
  }

  /** Sockets opened so far, reconnects included. */
  get socketsOpened(): number {
    return this.#socketsOpened;
  }

  /** Connects if needed, writes the request and resolves with its outcome; never rejects. */
  send(request: PreparedRequest): Promise<ResponseOutcome> {
    if (this.#req.busy) {
      const nowMs = this.#clock.nowMs();
      return Promise.resolve(responseOutcome(0, "other", 0, 0, nowMs, nowMs));
    }
    this.#reader.start(request.isHead);
    this.#pending = request.bytes;
    this.#written = 0;
    const promise = this.#req.begin();
    if (this.#state === OPEN) this.#write();
    else if (this.#state === CLOSED) this.#connect();
    return promise;
  }

  /**
   * Connects ahead of the first request. Resolves with the failure kind, or undefined when
   * connected (or busy), as the loop sees the connect finish: whoever awaits it drives the loop
   * (the dispatcher's `openConnections`), bounded by its own timeout.
   */
  open(): Promise<ErrorKind | undefined> {
    if (this.#state !== CLOSED || this.#req.busy) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      this.#opened = resolve;
      this.#connect(); // a connect that fails at once settles it through #connectFailed
    });
  }

  /** Fails the in-flight request with `kind` and closes the socket (and ends a waiting `open`). */
  abort(kind: ErrorKind): void {
    this.#closeSocket();
    const opened = this.#opened;
    this.#opened = undefined;
    opened?.(kind);
    if (this.#req.busy) this.#finish(0, kind);
  }

  /** Closes the socket; an in-flight request completes with error "other". */
  close(): void {
    this.abort("other");
  }

  /** Readiness of this socket, from the loop. */
  onEvents(events: number): void {
    if (this.#state === CONNECTING) {
      this.#connected();
      return;
    }
    if (this.#pending !== undefined && (events & NET.EPOLLOUT) !== 0) this.#write();
    if (this.#state === OPEN && (events & (NET.EPOLLIN | NET.EPOLLHUP | NET.EPOLLERR)) !== 0) {
      this.#read();
    }
  }

  /** Starts a non-blocking connect; returns the failure kind when it failed at once. */
  #connect(): ErrorKind | undefined {
    const started = startConnect(this.#loop.libc, this.#address);
    if (started.errno !== undefined) {
      const code = started.errno;
      if (code === NET.EMFILE || code === NET.ENFILE) this.#onOutOfDescriptors?.();
      return this.#connectFailed(errnoKind(code));
    }
    this.#fd = started.fd;
    this.#reader.clear();
    this.#state = CONNECTING;
    if (!this.#loop.add(started.fd, NET.EPOLLOUT, this)) return this.#connectFailed("other");
    return undefined;
  }

  /** The connect finished (writable, or an error): check how. */
  #connected(): void {
    const code = connectOutcome(this.#loop.libc, this.#fd);
    if (code !== 0) {
      this.#connectFailed(errnoKind(code));
      return;
    }
    this.#state = OPEN;
    this.#socketsOpened++;
    this.#watchOut(false);
    const opened = this.#opened;
    this.#opened = undefined;
    opened?.(undefined);
    if (this.#req.busy && this.#pending !== undefined) this.#write();
  }

  #connectFailed(kind: ErrorKind): ErrorKind {
    this.#closeSocket();
    const opened = this.#opened;
    this.#opened = undefined;
    opened?.(kind);
    if (this.#req.busy) this.#finish(0, kind);
    return kind;
  }

  /** Writes what is left of the pending request; waits for EPOLLOUT when the socket is full. */
  #write(): void {
    const bytes = this.#pending!;
    const { errno } = this.#loop.libc;
    if (this.#req.writtenAtMs < 0) {
      this.#req.written(this.#clock.nowMs(), bytes.length); // counted as sent from the first write
    }
    const rest = this.#written === 0 ? bytes : bytes.subarray(this.#written);
    const n = this.#loop.libc.send(this.#fd, rest, NET.MSG_NOSIGNAL);
    if (n < 0) {
      const code = errno();
      if (code !== NET.EAGAIN) {
        this.#req.bytesSent = this.#written;
        this.#fail(errnoKind(code));
        return;
      }
    } else {
      this.#written += n;
    }
    if (this.#written >= bytes.length) {
      this.#pending = undefined;
      if (this.#watchingOut) this.#watchOut(false);
    } else if (!this.#watchingOut) {
      this.#watchOut(true);
    }
  }

  #watchOut(on: boolean): void {
    this.#watchingOut = on;
    this.#loop.modify(this.#fd, on ? NET.EPOLLIN | NET.EPOLLOUT : NET.EPOLLIN);
  }

  #read(): void {
    const libc = this.#loop.libc;
    const n = libc.recvTimed(this.#fd, this.#reader.space(), 0);
    if (n < 0) {
      const code = libc.errno();
      if (code === NET.EAGAIN || code === NET.EINTR) return;
      this.#closeSocket();
      if (this.#req.busy) this.#finish(0, errnoKind(code));
      return;
    }
    if (n === 0) { // end of stream
      this.#closeSocket();
      if (!this.#req.busy) return; // the server closed an idle connection: reconnect on next send
      const parser = this.#reader.parser;
      if (parser.finish()) this.#finish(parser.status, undefined);
      else this.#finish(0, "reset");
      return;
    }
    if (!this.#req.busy) { // nothing was asked: the stream cannot be trusted any more
      this.#closeSocket();
      return;
    }
    // When the bytes reached the socket, not when the loop got round to reading them: the loop
    // wakes at most once per gap, and the kernel's receive timestamp keeps that wait (and any
    // pause of this thread) out of the response time. Kept within [written, now].
    const nowMs = this.#clock.nowMs();
    const arrivedMs = this.#loop.arrivalMs(libc.arrivalRealMs);
    const writtenMs = this.#req.writtenAtMs;
    const close = this.#reader.take(
      this.#req,
      n,
      arrivedMs <= nowMs ? (arrivedMs >= writtenMs ? arrivedMs : writtenMs) : nowMs,
    );
    if (close === undefined) return;
    // Answered before the request was written whole (a 413, say): the rest will never be sent,
    // so the stream is out of step and the socket must go (which also disarms EPOLLOUT).
    const unsent = this.#pending !== undefined;
    this.#pending = undefined;
    if (close || unsent) this.#closeSocket();
  }

  #fail(kind: ErrorKind): void {
    this.#closeSocket();
    this.#finish(0, kind);
  }

  #finish(status: number, error: ErrorKind | undefined): void {
    this.#pending = undefined;
    this.#req.settle(status, error, this.#clock.nowMs());
  }

  #closeSocket(): void {
    const fd = this.#fd;
    if (fd < 0) return;
    this.#fd = -1;
    this.#state = CLOSED;
    this.#watchingOut = false;
    this.#reader.clear();
    this.#loop.remove(fd);
    this.#loop.libc.symbols.close(fd);
  }
}
