/**
 * One HTTP/2 client session over one TCP or TLS connection of Deno's (private to this folder):
 * the socket, its read loop and its writes around {@linkcode H2ClientProtocol}, which holds the
 * protocol. `https:` offers ALPN `h2` alone and refuses a server that does not agree; `http:` is
 * h2c with prior knowledge. Writes are sent at once; those made while one is under way leave
 * together when it is done, so a burst of streams costs few system calls.
 *
 * @module
 */
import { socketReader } from "../socket/socket_reader.ts";
import { H2ClientProtocol, type H2StreamEvents, MALFORMED_RESPONSE } from "./h2_client_protocol.ts";
import { concatBytes, H2_CODE } from "./h2_frame.ts";

export { H2_CODE, type H2StreamEvents, MALFORMED_RESPONSE };

/** What a session tells its owner as it happens. */
export interface H2SessionEvents {
  /** The server's SETTINGS arrived (its `maxConcurrentStreams`, when it set one). */
  onSettings(maxConcurrentStreams: number | undefined): void;
  /** The server sent GOAWAY: streams above `lastStreamId` were not and will not be processed. */
  onGoaway(errorCode: number, lastStreamId: number): void;
  /** The session failed (socket, TLS or protocol error). */
  onError(error: unknown): void;
  /** The session is closed: no stream on it is open any more. */
  onClose(): void;
}

/** An open stream: cancelling it resets it (RST_STREAM CANCEL). */
export interface H2Stream {
  cancel(): void;
}

/** How a session connects. */
export interface H2ConnectOptions {
  /** PEM certificates trusted besides the system's (https only). */
  caCerts?: readonly string[];
  /** The stream and connection flow-control windows this client offers (bytes). */
  windowBytes: number;
}

/** A connection error this side found: its HTTP/2 error code and what was wrong. */
export class H2ProtocolError extends Error {
  /** Read by `h2ErrorKind`: a protocol error. */
  readonly code = "ERR_HTTP2_PROTOCOL";
  constructor(readonly h2Code: number, reason: string) {
    super(`HTTP/2 connection error ${h2Code}: ${reason}`);
  }
}

/** The read buffer: room for several frames of the default maximum size (16 KiB). */
const READ_BYTES = 64 * 1024;

/**
 * One HTTP/2 client session. Connecting starts at construction; `connected` resolves once the
 * socket is up (TLS agreed on `h2`) and the preface is written, or rejects with the error.
 */
export class H2Session {
  readonly connected: Promise<void>;
  readonly #events: H2SessionEvents;
  readonly #protocol: H2ClientProtocol;
  readonly #tls: boolean;
  #conn: Deno.Conn | undefined;
  #gone = false;
  #out: Uint8Array[] = [];
  #writing = false;

  constructor(origin: URL, options: H2ConnectOptions, events: H2SessionEvents) {
    this.#events = events;
    this.#tls = origin.protocol === "https:";
    this.#protocol = new H2ClientProtocol(options.windowBytes, {
      write: (bytes) => this.#write(bytes),
      onSettings: (max) => events.onSettings(max),
      onGoaway: (code, last) => {
        events.onGoaway(code, last);
        this.#closeIfDone();
      },
      onConnectionError: (code, reason) => {
        events.onError(new H2ProtocolError(code, reason));
        this.#shutdown();
      },
    });
    this.connected = this.#connect(origin, options);
    this.connected.catch(() => {});
  }

  /** True once the session is closed or closing: no new stream may start on it. */
  get closed(): boolean {
    return this.#gone || this.#protocol.closed;
  }

  /** Opens a stream with header block `block` and `body`; throws when the session is closed. */
  request(block: Uint8Array, body: Uint8Array | undefined, events: H2StreamEvents): H2Stream {
    if (this.#conn === undefined || this.closed) {
      throw new RangeError("the HTTP/2 session is not open");
    }
    const id = this.#protocol.request(block, body, events);
    return {
      cancel: () => {
        this.#protocol.cancel(id);
        this.#closeIfDone();
      },
    };
  }

  /** Closes the session at once; open streams close with it (`sessionGone`). */
  close(): void {
    this.#shutdown();
  }

  async #connect(origin: URL, options: H2ConnectOptions): Promise<void> {
    const hostname = origin.hostname.startsWith("[")
      ? origin.hostname.slice(1, -1)
      : origin.hostname;
    const port = origin.port === "" ? (this.#tls ? 443 : 80) : Number(origin.port);
    let conn: Deno.Conn;
    try {
      conn = this.#tls
        ? await connectH2Tls(hostname, port, options.caCerts)
        : await Deno.connect({ hostname, port });
    } catch (error) {
      this.#shutdown();
      throw error;
    }
    if (!this.#tls) (conn as Deno.TcpConn).setNoDelay(true);
    if (this.#gone) {
      conn.close();
      throw new Error("the HTTP/2 session closed while connecting");
    }
    this.#conn = conn;
    this.#protocol.start();
    void this.#readLoop(conn);
  }

  async #readLoop(conn: Deno.Conn): Promise<void> {
    const { read } = socketReader(conn, this.#tls);
    const buffer = new Uint8Array(READ_BYTES);
    let start = 0;
    let end = 0;
    for (;;) {
      if (end === buffer.length) {
        buffer.copyWithin(0, start, end);
        end -= start;
        start = 0;
      }
      let n: number | null;
      try {
        n = await read(buffer.subarray(end));
      } catch (error) {
        if (!this.#gone) {
          this.#events.onError(error);
          this.#shutdown();
        }
        return;
      }
      if (this.#gone) return;
      if (n === null) return this.#shutdown();
      end += n;
      start += this.#protocol.receive(buffer, start, end);
      if (start === end) start = end = 0;
      if (this.#gone) return;
      this.#closeIfDone();
    }
  }

  #write(bytes: Uint8Array): void {
    if (this.#gone) return;
    this.#out.push(bytes);
    if (!this.#writing) void this.#pump();
  }

  /** Writes what is queued, in order, until the queue is empty. */
  async #pump(): Promise<void> {
    const conn = this.#conn!;
    this.#writing = true;
    try {
      while (this.#out.length > 0 && !this.#gone) {
        const chunk = this.#out.length === 1 ? this.#out[0] : concatBytes(this.#out);
        this.#out = [];
        let written = await conn.write(chunk);
        while (written < chunk.length && !this.#gone) {
          written += await conn.write(chunk.subarray(written));
        }
      }
    } catch (error) {
      if (!this.#gone) {
        this.#events.onError(error);
        this.#shutdown();
      }
    } finally {
      this.#writing = false;
    }
  }

  /** After GOAWAY (or with its stream ids used up) the session ends with its last stream. */
  #closeIfDone(): void {
    if (this.#protocol.closed && !this.#protocol.failed && this.#protocol.openStreams === 0) {
      this.#shutdown();
    }
  }

  #shutdown(): void {
    if (this.#gone) return;
    this.#gone = true;
    this.#out = [];
    try {
      this.#conn?.close();
    } catch { /* already closed */ }
    this.#protocol.fail();
    this.#events.onClose();
  }
}

/** A TLS connection that agreed on `h2` by ALPN; any other answer is an error naming it. */
async function connectH2Tls(
  hostname: string,
  port: number,
  caCerts: readonly string[] | undefined,
): Promise<Deno.TlsConn> {
  const conn = await Deno.connectTls({
    hostname,
    port,
    alpnProtocols: ["h2"],
    ...(caCerts ? { caCerts: [...caCerts] } : {}),
  });
  try {
    const { alpnProtocol } = await conn.handshake();
    if (alpnProtocol !== "h2") {
      throw new Error(`TLS ALPN: the server chose ${alpnProtocol ?? "no protocol"}, not h2`);
    }
    return conn;
  } catch (error) {
    conn.close();
    throw error;
  }
}
