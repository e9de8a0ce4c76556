/**
 * A lean HTTP/1.1 client connection over `Deno.connect` / `Deno.connectTls`: one request at a
 * time, kept alive and reused, reconnected lazily on the next send after the server closed it.
 *
 * Design: a read loop runs for as long as the socket is open, so a server closing an idle
 * connection is noticed before the next request (which then reconnects instead of failing), and
 * bytes arriving when no request is in flight close the connection. Reads go into one reusable
 * buffer; body bytes are counted by the parser and overwritten by the next read. `send` resolves
 * from whichever comes first: the response, a failure, or `abort`/`close`.
 *
 * @module
 */
import type { ErrorKind } from "../../model/mod.ts";
import { ConnectFailure, outOfDescriptors, socketErrorKind } from "../http1/mod.ts";
import { InflightRequest } from "../inflight_request.ts";
import { ResponseReader } from "../http1/mod.ts";
import { socketReader } from "./socket_reader.ts";
import { TLS_HTTP1 } from "../http1/mod.ts";
import {
  type Clock,
  type Connection,
  type PreparedRequest,
  type ResponseOutcome,
  responseOutcome,
} from "../types.ts";
import type { BodySampler } from "../body_sample.ts";

/**
 * Where and how an {@linkcode Http1Connection} connects.
 */
export interface Http1ConnectionOptions {
  /** The target: scheme (http or https), host and port; the path is the request's business. */
  url: URL;
  clock: Clock;
  /** TLS settings for https; `caCerts` are PEM certificates trusted besides the system's. */
  tls?: { caCerts?: string[] };
  /** Called when a connect fails because the process ran out of file descriptors. */
  onOutOfDescriptors?: () => void;
  /** Called when a request fails because the server answered with HTTP/2 frames. */
  onHttp2Reply?: () => void;
  /** Keeps the first body of each unexpected status, per label and code. */
  bodySampler?: BodySampler;
}

/**
 * One keep-alive HTTP/1.1 connection. `send` never rejects: failures are outcomes with an
 * `error` (refused, reset, tls, protocol, timeout via `abort`, other). A status outside the
 * request's `expect` is reported as is; judging it is the recorder's job. `writtenAtMs` is read
 * after connecting, just before the first write; when nothing was written it equals
 * `completedAtMs`. `connectMs` is how long a request that found no socket waited for one.
 */
export class Http1Connection implements Connection {
  readonly #hostname: string;
  readonly #port: number;
  readonly #tls: { caCerts?: string[] } | undefined;
  readonly #clock: Clock;
  readonly #onOutOfDescriptors: (() => void) | undefined;
  readonly #reader: ResponseReader;
  readonly #req = new InflightRequest();
  /** Counts `close` calls, so a connect that `open` awaited past one is closed on arrival. */
  #closes = 0;
  #conn: Deno.Conn | undefined;
  #socketsOpened = 0;
  /** Counts sends, so a late step of an earlier send can tell it is stale. */
  #sendSeq = 0;
  /** The request whose hot-path write is pending, or 0; and its bytes. */
  #writeSeq = 0;
  #writeBytes: Uint8Array | undefined;

  constructor(options: Http1ConnectionOptions) {
    const { url } = options;
    const https = url.protocol === "https:";
    this.#hostname = url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
    this.#port = url.port === "" ? (https ? 443 : 80) : Number(url.port);
    this.#tls = https ? (options.tls ?? {}) : undefined;
    this.#clock = options.clock;
    this.#onOutOfDescriptors = options.onOutOfDescriptors;
    this.#reader = new ResponseReader(options.onHttp2Reply, options.bodySampler);
  }

  /** True while a request is in flight. */
  get busy(): boolean {
    return this.#req.busy;
  }

  /** Connects if needed, writes the request and resolves with its outcome; never rejects. */
  send(request: PreparedRequest): Promise<ResponseOutcome> {
    if (this.#req.busy) {
      const nowMs = this.#clock.nowMs();
      return Promise.resolve(responseOutcome(0, "other", 0, 0, nowMs, nowMs));
    }
    this.#reader.start(request.isHead, request);
    const promise = this.#req.begin(this.#reader.kept);
    const seq = ++this.#sendSeq;
    const conn = this.#conn;
    if (conn !== undefined && this.#writeSeq === 0) this.#writeOnce(conn, request.bytes, seq);
    else void this.#connectAndWrite(seq, request.bytes);
    return promise;
  }

  /**
   * Connects ahead of the first request, so the run does not pay connection setup inside its
   * measured schedule. Resolves with the failure kind, or undefined when connected (or busy).
   */
  async open(): Promise<ErrorKind | undefined> {
    if (this.#conn !== undefined || this.#req.busy) return undefined;
    const closes = this.#closes;
    let conn: Deno.Conn;
    try {
      conn = await this.#connect();
    } catch (error) {
      return error instanceof ConnectFailure ? error.kind : "other";
    }
    // Connected after all, but too late: the run gave up waiting and closed this connection.
    if (closes !== this.#closes) {
      conn.close();
      return "other";
    }
    if (this.#conn !== undefined || this.#req.busy) {
      conn.close();
      return undefined;
    }
    this.#conn = conn;
    this.#reader.clear();
    void this.#readLoop(conn);
    return undefined;
  }

  /** Fails the in-flight request with `kind` and closes the socket. */
  abort(kind: ErrorKind): void {
    this.#closeSocket();
    if (this.#req.busy) this.#finish(0, kind);
  }

  /**
   * Closes the socket; an in-flight request completes with error "other", and a connect that
   * `open` still awaits is closed when it lands.
   */
  close(): void {
    this.#closes++;
    this.abort("other");
  }

  /**
   * The hot path on an open connection: one write and bound callbacks, no async frame. Only one
   * such write is pending at a time (`#writeSeq`), so its callbacks know whose write it was.
   */
  #writeOnce(conn: Deno.Conn, bytes: Uint8Array, seq: number): void {
    // Counted as sent from the first write: the response may be read before the write resolves.
    this.#req.written(this.#clock.nowMs(), bytes.length);
    this.#writeSeq = seq;
    this.#writeBytes = bytes;
    conn.write(bytes).then(this.#onWritten, this.#onWriteFailed);
  }

  readonly #onWritten = (n: number): void => {
    const seq = this.#writeSeq;
    const bytes = this.#writeBytes!;
    this.#writeSeq = 0;
    this.#writeBytes = undefined;
    const conn = this.#conn;
    if (n < bytes.length && seq === this.#sendSeq && this.#req.busy && conn !== undefined) {
      void this.#writeRest(seq, conn, bytes, n);
    }
  };

  readonly #onWriteFailed = (error: unknown): void => {
    const seq = this.#writeSeq;
    this.#writeSeq = 0;
    this.#writeBytes = undefined;
    if (seq === this.#sendSeq && this.#req.busy) {
      this.#req.bytesSent = 0;
      this.#fail(this.#errorKind(error));
    }
  };

  /** Connects when there is no socket, then writes (also used while a hot-path write lingers). */
  async #connectAndWrite(seq: number, bytes: Uint8Array): Promise<void> {
    let conn = this.#conn;
    if (conn === undefined) {
      const startedMs = this.#clock.nowMs();
      try {
        conn = await this.#connect();
      } catch (error) {
        if (seq === this.#sendSeq && this.#req.busy) {
          this.#fail(error instanceof ConnectFailure ? error.kind : "other");
        }
        return;
      }
      if (seq !== this.#sendSeq || !this.#req.busy) { // aborted while connecting
        conn.close();
        return;
      }
      this.#conn = conn;
      this.#reader.clear();
      void this.#readLoop(conn);
      this.#req.connected(this.#clock.nowMs() - startedMs);
    }
    this.#req.written(this.#clock.nowMs(), bytes.length);
    await this.#writeRest(seq, conn, bytes, 0);
  }

  /** Writes `bytes` from `written` on, looping over partial writes while `seq` is current. */
  async #writeRest(seq: number, conn: Deno.Conn, bytes: Uint8Array, written: number) {
    try {
      while (written < bytes.length && seq === this.#sendSeq && this.#req.busy) {
        written += await conn.write(written === 0 ? bytes : bytes.subarray(written));
      }
    } catch (error) {
      if (seq === this.#sendSeq && this.#req.busy) {
        this.#req.bytesSent = written;
        this.#fail(this.#errorKind(error));
      }
    }
  }

  /** Sockets opened so far, reconnects included. */
  get socketsOpened(): number {
    return this.#socketsOpened;
  }

  async #connect(): Promise<Deno.Conn> {
    const hostname = this.#hostname;
    const port = this.#port;
    if (this.#tls === undefined) {
      try {
        const conn = await Deno.connect({ hostname, port });
        conn.setNoDelay(true);
        this.#socketsOpened++;
        return conn;
      } catch (error) {
        if (outOfDescriptors(error)) this.#onOutOfDescriptors?.();
        throw new ConnectFailure(this.#errorKind(error));
      }
    }
    let conn: Deno.TlsConn | undefined;
    try {
      // Offering HTTP/1.1 by ALPN, as the pre-flight does: a server that speaks only HTTP/2 refuses
      // the handshake rather than answering requests in a protocol tailgate does not send.
      conn = await Deno.connectTls({ ...TLS_HTTP1, hostname, port, caCerts: this.#tls.caCerts });
      await conn.handshake();
      this.#socketsOpened++;
      return conn;
    } catch (error) {
      conn?.close();
      throw new ConnectFailure(this.#errorKind(error) === "refused" ? "refused" : "tls");
    }
  }

  /** Reads for as long as `conn` is the open socket. */
  async #readLoop(conn: Deno.Conn): Promise<void> {
    const { read } = socketReader(conn, this.#tls !== undefined);
    for (;;) {
      let n: number | null;
      try {
        n = await read(this.#reader.space());
      } catch (error) {
        if (conn !== this.#conn) return; // closed by this side
        this.#closeSocket();
        if (this.#req.busy) this.#fail(this.#errorKind(error));
        return;
      }
      if (conn !== this.#conn) return;
      if (n === null) {
        this.#closeSocket();
        if (!this.#req.busy) return; // the server closed an idle connection: reconnect on next send
        if (this.#reader.finishOnClose(this.#clock.nowMs())) {
          this.#req.retryAfterS = this.#reader.parser.retryAfterS;
          this.#finish(this.#reader.parser.status, undefined);
        } else this.#fail("reset");
        return;
      }
      this.#received(n);
      if (conn !== this.#conn) return;
    }
  }

  #received(n: number): void {
    if (!this.#req.busy) { // nothing was asked: the stream cannot be trusted any more
      this.#closeSocket();
      return;
    }
    if (this.#reader.take(this.#req, n, this.#clock.nowMs())) this.#closeSocket();
  }

  #fail(kind: ErrorKind): void {
    this.#closeSocket();
    this.#finish(0, kind);
  }

  #finish(status: number, error: ErrorKind | undefined): void {
    this.#req.settle(status, error, this.#clock.nowMs());
  }

  #closeSocket(): void {
    const conn = this.#conn;
    if (conn === undefined) return;
    this.#conn = undefined;
    this.#reader.clear();
    try {
      conn.close();
    } catch {
      // already closed
    }
  }

  #errorKind(error: unknown): ErrorKind {
    return socketErrorKind(error, this.#tls !== undefined);
  }
}
