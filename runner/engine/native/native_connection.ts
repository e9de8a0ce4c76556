/**
 * An HTTP/1.1 connection on a non-blocking libc socket driven by an {@linkcode EpollLoop}: the
 * native I/O path on Linux. Same contract as `Http1Connection` (one request at a time, keep-alive,
 * lazy reconnect, failures as outcomes, `writtenAtMs` just before the first write), without Deno's
 * per-read op and promise: a request costs one `send` and, per readiness event, one `recv`, both
 * straight FFI calls on the engine thread. Over TLS (an https target), OpenSSL works on memory
 * BIOs beside the socket (`libssl_tls.ts`, as for h2): the handshake after the TCP connect, before
 * the request is written, so it is in the response time and not the service time; a request is
 * encrypted whole and sent as one `send`; what a read brings is decrypted record by record.
 * (Over 400 lines: plain and TLS share one state machine of connect, write, read and close; split,
 * each half would repeat it.)
 *
 * @module
 */
import type { ErrorKind } from "../../model/mod.ts";
import type { EpollHandler, EpollLoop } from "./epoll_loop.ts";
import { responseOutcome } from "../types.ts";
import { NET } from "./libc_net.ts";
import { connectOutcome, startConnect } from "./native_socket.ts";
import { InflightRequest } from "../inflight_request.ts";
import { ResponseReader } from "../http1/mod.ts";
import type { Clock, Connection, PreparedRequest, ResponseOutcome } from "../types.ts";
import { TlsClient, type TlsContext } from "./libssl_tls.ts";
import { concatBytes } from "../http2/mod.ts";
import type { BodySampler } from "../body_sample.ts";

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
  /** HTTPS: the run's TLS context (ALPN `http/1.1`) and the name the certificate must carry. */
  tls?: { context: TlsContext; host: string };
  /** Keeps the first body of each unexpected status, per label and code. */
  bodySampler?: BodySampler;
}

/** Ciphertext read per `recv` over TLS: a full record and its overhead. */
const TLS_READ_BYTES = 17 * 1024;

/** The kind of a failed socket call's errno. */
export function errnoKind(errno: number): ErrorKind {
  if (errno === NET.ECONNREFUSED) return "refused";
  if (errno === NET.ECONNRESET || errno === NET.EPIPE || errno === NET.ECONNABORTED) return "reset";
  return "other";
}

const CLOSED = 0;
const CONNECTING = 1;
/** TCP connected, the TLS handshake under way. */
const HANDSHAKING = 2;
const OPEN = 3;

/**
 * One keep-alive connection on a native socket. `send` never rejects.
 */
export class NativeConnection implements Connection, EpollHandler {
  readonly #loop: EpollLoop;
  readonly #clock: Clock;
  readonly #address: Uint8Array;
  readonly #onOutOfDescriptors: (() => void) | undefined;
  readonly #tlsOptions: { context: TlsContext; host: string } | undefined;
  readonly #reader: ResponseReader;
  readonly #req = new InflightRequest();
  #fd = -1;
  #state = CLOSED;
  #socketsOpened = 0;
  /** When the connect under way began (clock ms). */
  #connectStartedMs = 0;
  /** The request not yet handed to the socket (waiting for the connect). */
  #request: Uint8Array | undefined;
  /** Bytes for the socket that it has not taken yet (the request, or ciphertext), and how many it took. */
  #pending: Uint8Array | undefined;
  #written = 0;
  /** The TLS state while a TLS socket is open, and its ciphertext buffers (read, and to send). */
  #tls: TlsClient | undefined;
  #raw: Uint8Array | undefined;
  #out: Uint8Array | undefined;
  /** Whether the socket is watched for EPOLLOUT (a write is waiting for room). */
  #watchingOut = false;
  /** Whether bytes arrived for the request in flight (while it is, its rest is read at once). */
  #partial = false;
  /** Set while `open` waits: called with the connect's result. */
  #opened: ((kind: ErrorKind | undefined) => void) | undefined;

  constructor(options: NativeConnectionOptions) {
    this.#loop = options.loop;
    this.#clock = options.clock;
    this.#address = options.socketAddress;
    this.#onOutOfDescriptors = options.onOutOfDescriptors;
    this.#tlsOptions = options.tls;
    this.#reader = new ResponseReader(options.onHttp2Reply, options.bodySampler);
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
    this.#reader.start(request.isHead, request);
    this.#request = request.bytes;
    this.#partial = false;
    const promise = this.#req.begin(this.#reader.kept);
    if (this.#state === OPEN) this.#writeRequest();
    else if (this.#state === CLOSED) this.#connect();
    else this.#connectStartedMs = this.#clock.nowMs(); // an `open` under way: waited from here
    this.#settle();
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
    this.#onEvents(events);
    this.#settle();
  }

  /**
   * Tells the loop whether this socket's next readiness may wait for its next deadline: only
   * while open, with nothing waiting to be written and nothing of an answer read yet.
   */
  #settle(): void {
    if (this.#fd < 0) return;
    this.#loop.mayDefer(
      this.#fd,
      this.#state === OPEN && !this.#watchingOut && !(this.#partial && this.#req.busy),
    );
  }

  #onEvents(events: number): void {
    if (this.#state === CONNECTING) {
      this.#connected();
      return;
    }
    if (this.#pending !== undefined && (events & NET.EPOLLOUT) !== 0) this.#write();
    if ((events & (NET.EPOLLIN | NET.EPOLLHUP | NET.EPOLLERR)) === 0) return;
    if (this.#state === OPEN) this.#read();
    else if (this.#state === HANDSHAKING) this.#readHandshake();
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
    this.#connectStartedMs = this.#clock.nowMs();
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
    this.#socketsOpened++;
    this.#watchOut(false);
    const tls = this.#tlsOptions;
    if (tls === undefined) return this.#open();
    try {
      this.#tls = new TlsClient(tls.context, tls.host);
    } catch {
      this.#connectFailed("tls");
      return;
    }
    this.#raw ??= new Uint8Array(TLS_READ_BYTES);
    this.#out ??= new Uint8Array(TLS_READ_BYTES);
    this.#state = HANDSHAKING;
    this.#advanceHandshake();
  }

  /**
   * Connected (and TLS agreed): the waiting `open` resolves, a waiting request is written, having
   * waited for the connect.
   */
  #open(): void {
    this.#state = OPEN;
    const opened = this.#opened;
    this.#opened = undefined;
    opened?.(undefined);
    if (this.#req.busy && this.#request !== undefined) {
      this.#req.connected(this.#clock.nowMs() - this.#connectStartedMs);
      this.#writeRequest();
    }
  }

  /** Runs the TLS handshake as far as the bytes at hand take it; open once it is done. */
  #advanceHandshake(): void {
    let state: "done" | "more";
    try {
      state = this.#tls!.handshake();
    } catch {
      this.#sendCiphertext(); // the alert, if any
      this.#connectFailed("tls");
      return;
    }
    this.#sendCiphertext();
    if (this.#fd >= 0 && state === "done") this.#open();
  }

  #readHandshake(): void {
    const libc = this.#loop.libc;
    const n = libc.recv(this.#fd, this.#raw!, 0);
    if (n < 0) {
      const code = libc.errno();
      if (code !== NET.EAGAIN && code !== NET.EINTR) this.#connectFailed(errnoKind(code));
      return;
    }
    if (n === 0) {
      this.#connectFailed("tls"); // closed during the handshake
      return;
    }
    this.#tls!.putCiphertext(this.#raw!.subarray(0, n));
    this.#advanceHandshake();
  }

  /**
   * Hands what TLS has to send to the socket, behind anything still waiting. The usual case, a
   * request's records with nothing waiting, goes from the connection's buffer to one `send`; only
   * what the socket does not take is copied to wait for EPOLLOUT.
   */
  #sendCiphertext(): void {
    const tls = this.#tls;
    const out = this.#out!;
    while (tls !== undefined && this.#fd >= 0) {
      const n = tls.takeCiphertextInto(out);
      if (n === 0) return;
      const fresh = out.subarray(0, n);
      this.#pending = this.#pending === undefined
        ? fresh
        : concatBytes([this.#pending.subarray(this.#written), fresh]);
      this.#written = 0;
      this.#write();
      // What the socket did not take waits for EPOLLOUT; `out` is reused, so that is copied.
      if (this.#pending?.buffer === out.buffer) {
        this.#pending = this.#pending.slice(this.#written);
        this.#written = 0;
      }
    }
  }

  /** Writes the request: counted as sent from here, encrypted first over TLS. */
  #writeRequest(): void {
    const bytes = this.#request!;
    this.#request = undefined;
    this.#req.written(this.#clock.nowMs(), bytes.length);
    if (this.#tls === undefined) {
      this.#pending = bytes;
      this.#written = 0;
      this.#write();
      return;
    }
    try {
      this.#tls.writePlain(bytes);
    } catch {
      this.#fail("tls");
      return;
    }
    this.#sendCiphertext();
  }

  #connectFailed(kind: ErrorKind): ErrorKind {
    this.#closeSocket();
    const opened = this.#opened;
    this.#opened = undefined;
    opened?.(kind);
    if (this.#req.busy) this.#finish(0, kind);
    return kind;
  }

  /** Writes what is left of the pending bytes; waits for EPOLLOUT when the socket is full. */
  #write(): void {
    const bytes = this.#pending!;
    const { errno } = this.#loop.libc;
    const rest = this.#written === 0 ? bytes : bytes.subarray(this.#written);
    const n = this.#loop.libc.send(this.#fd, rest, NET.MSG_NOSIGNAL);
    if (n < 0) {
      const code = errno();
      if (code !== NET.EAGAIN) return this.#sendFailed(code);
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

  /** A `send` failed with `errno`: the request fails, or the connect when it was not open yet. */
  #sendFailed(errno: number): void {
    // Over TLS the octets sent are ciphertext: the request's share of them is not known.
    if (this.#tls === undefined && this.#req.busy) this.#req.bytesSent = this.#written;
    if (this.#state === OPEN) this.#fail(errnoKind(errno));
    else this.#connectFailed(errnoKind(errno));
  }

  #watchOut(on: boolean): void {
    this.#watchingOut = on;
    this.#loop.modify(this.#fd, on ? NET.EPOLLIN | NET.EPOLLOUT : NET.EPOLLIN);
  }

  #read(): void {
    const libc = this.#loop.libc;
    const tls = this.#tls;
    const n = libc.recvTimed(this.#fd, tls === undefined ? this.#reader.space() : this.#raw!, 0);
    if (n < 0) {
      const code = libc.errno();
      if (code === NET.EAGAIN || code === NET.EINTR) return;
      this.#closeSocket();
      if (this.#req.busy) this.#finish(0, errnoKind(code));
      return;
    }
    if (n === 0) return this.#ended();
    this.#partial = true; // counts while this request is in flight (#settle)
    if (tls === undefined) {
      if (!this.#req.busy) return this.#closeSocket(); // nothing was asked: the stream is suspect
      return this.#took(n, this.#arrivalMs());
    }
    tls.putCiphertext(this.#raw!.subarray(0, n));
    const atMs = this.#req.busy ? this.#arrivalMs() : 0;
    while (this.#fd >= 0) {
      let got: number;
      try {
        got = tls.readPlain(this.#reader.space());
      } catch {
        if (this.#req.busy) this.#fail("tls");
        else this.#closeSocket();
        return;
      }
      if (got === 0) break; // no whole record left
      if (got < 0) return this.#ended(); // close_notify
      if (!this.#req.busy) return this.#closeSocket();
      this.#took(got, atMs);
      // Answered: what else is buffered is not asked for, or closes the stream, and the next
      // read sees it (saves the failing read and its error query per request).
      if (!this.#req.busy) return;
    }
    this.#sendCiphertext(); // what the reads made TLS answer (a key update), if the socket is open
  }

  /** The server ended the stream: a response that ends with it completes, else `reset`. */
  #ended(): void {
    this.#closeSocket();
    if (!this.#req.busy) return; // the server closed an idle connection: reconnect on next send
    if (this.#reader.finishOnClose(this.#clock.nowMs())) {
      this.#req.retryAfterS = this.#reader.parser.retryAfterS;
      this.#finish(this.#reader.parser.status, undefined);
    } else this.#finish(0, "reset");
  }

  /**
   * When the bytes just read reached the socket, not when the loop got round to reading them: the
   * loop wakes at most once per gap, and the kernel's receive timestamp keeps that wait (and any
   * pause of this thread) out of the response time. Kept within [written, now].
   */
  #arrivalMs(): number {
    const nowMs = this.#clock.nowMs();
    const arrivedMs = this.#loop.arrivalMs(this.#loop.libc.arrivalRealMs);
    const writtenMs = this.#req.writtenAtMs;
    return arrivedMs <= nowMs ? (arrivedMs >= writtenMs ? arrivedMs : writtenMs) : nowMs;
  }

  /** Takes `n` response bytes read at `atMs`; closes the socket when the response says so. */
  #took(n: number, atMs: number): void {
    const close = this.#reader.take(this.#req, n, atMs);
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
    this.#request = undefined;
    this.#req.settle(status, error, this.#clock.nowMs());
  }

  #closeSocket(): void {
    const fd = this.#fd;
    if (fd < 0) return;
    this.#fd = -1;
    this.#state = CLOSED;
    this.#watchingOut = false;
    this.#pending = undefined;
    this.#tls?.free();
    this.#tls = undefined;
    this.#reader.clear();
    this.#loop.remove(fd);
    this.#loop.libc.symbols.close(fd);
  }
}
