/**
 * A TLS handshake as the native path makes it (OpenSSL 3, the run's trust store), over a Deno
 * socket, for the pre-flight: it settles what Deno's TLS (rustls) refuses and OpenSSL accepts, such
 * as a self-signed certificate marked CA:TRUE trusted through `--ca-cert` (what `openssl req -x509`
 * makes by default; curl and the run's native connections take it as the end entity it is).
 * No request is sent.
 *
 * @module
 */
import { err, ok, problem, type Result } from "../../model/mod.ts";
import { type LibSsl, TlsClient, TlsContext } from "./libssl_tls.ts";

/** A connection's place: the name or IP address the certificate must carry, and the port. */
export interface TlsPeer {
  hostname: string;
  port: number;
}

/**
 * Makes one TLS handshake with `peer` through OpenSSL (`lib`), trusting the system's store and
 * `caCerts`, offering `alpn`; the protocol the server chose by ALPN (null: none), or OpenSSL's
 * reason (`certificate verify failed: self-signed certificate`, …). Within `timeoutMs`.
 */
export async function nativeTlsHandshake(
  lib: LibSsl,
  peer: TlsPeer,
  caCerts: readonly string[],
  alpn: readonly string[],
  timeoutMs: number,
): Promise<Result<string | null>> {
  let conn: Deno.TcpConn;
  try {
    conn = await Deno.connect(peer);
  } catch (e) {
    return err(problem((e as Error).message));
  }
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    closeQuietly(conn);
  }, timeoutMs);
  let context: TlsContext | undefined;
  let client: TlsClient | undefined;
  try {
    context = new TlsContext(lib, caCerts, alpn);
    client = new TlsClient(context, peer.hostname);
    const buffer = new Uint8Array(16 * 1024);
    for (;;) {
      const state = client.handshake();
      for (let out = client.takeCiphertext(); out; out = client.takeCiphertext()) {
        for (let at = 0; at < out.length;) at += await conn.write(out.subarray(at));
      }
      if (state === "done") return ok(client.alpnProtocol());
      const n = await conn.read(buffer);
      if (n === null) throw new Error("the server closed the connection during the handshake");
      client.putCiphertext(buffer.subarray(0, n));
    }
  } catch (e) {
    if (timedOut) return err(problem(`no TLS handshake within ${timeoutMs} ms`));
    return err(problem((e as Error).message.replace(/^TLS: /, "")));
  } finally {
    clearTimeout(timer);
    closeQuietly(conn);
    client?.free();
    context?.free();
  }
}

function closeQuietly(conn: Deno.Conn): void {
  try {
    conn.close();
  } catch {
    // already closed
  }
}
