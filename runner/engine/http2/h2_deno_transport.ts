/**
 * An HTTP/2 connection's socket on Deno's sockets: `Deno.connect` for h2c, and `Deno.startTls` on
 * it offering ALPN `h2` alone for h2 (a server that chooses anything else is an error naming what it
 * chose). One read loop; writes go at once, and those made while one is under way leave together
 * when it is done, so a burst of streams costs few system calls. Bytes are timed when the read
 * returns them.
 *
 * @module
 */
import { socketReader } from "../socket/mod.ts";
import type { Clock } from "../types.ts";
import { concatBytes } from "./h2_frame.ts";
import { H2_READ_BYTES, type H2Receiver, type H2Transport } from "./h2_transport.ts";

/** A transport to `origin` (`http:` h2c, `https:` h2 by ALPN). */
export class H2DenoTransport implements H2Transport {
  readonly #origin: URL;
  readonly #caCerts: readonly string[] | undefined;
  readonly #clock: Clock;
  readonly #tls: boolean;
  #conn: Deno.Conn | undefined;
  #receiver: H2Receiver | undefined;
  #closed = false;
  #out: Uint8Array[] = [];
  /** Octets written here that the socket has not taken yet. */
  #waitingBytes = 0;
  #writing = false;

  constructor(origin: URL, clock: Clock, caCerts?: readonly string[]) {
    this.#origin = origin;
    this.#clock = clock;
    this.#caCerts = caCerts;
    this.#tls = origin.protocol === "https:";
  }

  async connect(receiver: H2Receiver): Promise<void> {
    this.#receiver = receiver;
    const { hostname: host, port: portText } = this.#origin;
    const hostname = host.startsWith("[") ? host.slice(1, -1) : host;
    const port = portText === "" ? (this.#tls ? 443 : 80) : Number(portText);
    // No Nagle: a stream's HEADERS must not wait for the ACK of the one before it (with the
    // server's delayed ACK that held streams 10-40 ms over TLS, where Deno leaves Nagle on).
    const tcp = await Deno.connect({ hostname, port });
    tcp.setNoDelay(true);
    const conn = this.#tls ? await startH2Tls(tcp, hostname, this.#caCerts) : tcp;
    if (this.#closed) {
      conn.close();
      throw new Error("the HTTP/2 connection closed while connecting");
    }
    this.#conn = conn;
    void this.#readLoop(conn, receiver);
  }

  write(bytes: Uint8Array): number {
    if (this.#closed || this.#conn === undefined) return 0;
    this.#out.push(bytes);
    this.#waitingBytes += bytes.length;
    if (!this.#writing) void this.#pump(this.#conn);
    return this.#waitingBytes;
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#out = [];
    this.#waitingBytes = 0;
    try {
      this.#conn?.close();
    } catch { /* already closed */ }
  }

  async #readLoop(conn: Deno.Conn, receiver: H2Receiver): Promise<void> {
    const { read } = socketReader(conn, this.#tls);
    const buffer = new Uint8Array(H2_READ_BYTES);
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
        if (!this.#closed) receiver.onError(error);
        return;
      }
      if (this.#closed) return;
      if (n === null) return receiver.onEnd();
      end += n;
      start += receiver.onBytes(buffer, start, end, this.#clock.nowMs());
      if (start === end) start = end = 0;
      if (this.#closed) return;
    }
  }

  /** Writes what is queued, in order, until the queue is empty. */
  async #pump(conn: Deno.Conn): Promise<void> {
    this.#writing = true;
    try {
      while (this.#out.length > 0 && !this.#closed) {
        const chunk = this.#out.length === 1 ? this.#out[0] : concatBytes(this.#out);
        this.#out = [];
        for (let written = 0; written < chunk.length && !this.#closed;) {
          const n = await conn.write(chunk.subarray(written));
          written += n;
          if (!this.#closed) this.#waitingBytes -= n;
        }
      }
    } catch (error) {
      if (!this.#closed) this.#receiver?.onError(error);
    } finally {
      this.#writing = false;
    }
  }
}

/** TLS over `tcp` that agreed on `h2` by ALPN; any other answer is an error naming it. */
async function startH2Tls(
  tcp: Deno.TcpConn,
  hostname: string,
  caCerts: readonly string[] | undefined,
): Promise<Deno.TlsConn> {
  let conn: Deno.TlsConn;
  try {
    conn = await Deno.startTls(tcp, {
      hostname,
      alpnProtocols: ["h2"],
      ...(caCerts ? { caCerts: [...caCerts] } : {}),
    });
  } catch (error) {
    tcp.close();
    throw error;
  }
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
