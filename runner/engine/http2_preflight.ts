/**
 * Before a run: does the target speak only HTTP/2? tailgate sends HTTP/1.1, and such a server
 * would fail every request (`protocol` errors from a cleartext h2c port, a refused handshake or a
 * 403 from a TLS server offering only `h2`), so the pre-flight names it, with the fix.
 *
 * Cleartext: the probe sends the start of an HTTP/1.1 request head (`HEAD / HTTP/1.1`, its Host
 * and User-Agent lines, never the blank line that ends it) and reads what comes back. An HTTP/2 server reads
 * those bytes as a wrong connection preface and answers at once with its SETTINGS (often a GOAWAY
 * after it); an HTTP/1.1 server waits for the rest of the head, sends nothing, and no request
 * reaches its application. The verdict comes from the first bytes; the wait only bounds how long
 * silence takes to mean "not HTTP/2".
 *
 * TLS: a handshake offering ALPN `http/1.1` (as the run's connections do) that the server refuses
 * with `no_application_protocol` is tried again offering `h2`; a server that takes it offers only
 * HTTP/2.
 *
 * @module
 */
import { http2OpeningFrame, mayBeHttp2FrameStart, USER_AGENT_LINE } from "./http1/mod.ts";

/** The least time the cleartext probe waits for an answer, in ms (more on a slow connect). */
export const PROBE_MIN_WAIT_MS = 50;

/**
 * What the pre-flight says of an origin that speaks only HTTP/2: how it showed (`how`), what
 * tailgate sends, and the fix: a cleartext port that speaks HTTP/1.1, or a TLS server that offers
 * it by ALPN too.
 */
export function http2OnlyProblem(url: URL, how: string): string {
  const other = url.protocol === "https:"
    ? "a server that offers http/1.1 by ALPN too (node:http2: allowHTTP1: true)"
    : "a port that speaks HTTP/1.1 (nginx: a `listen` without `http2`)";
  return `${url.origin} speaks only HTTP/2 (${how}), and this plan sends HTTP/1.1: set ` +
    `\`load.http: 2\` in the plan (or run with --http2), or point it at ${other}`;
}

/**
 * Sends the start of an HTTP/1.1 request head to the cleartext `url` and reads the answer for up
 * to `maxWaitMs` (at least {@linkcode PROBE_MIN_WAIT_MS}, and four times the connect's time):
 * returns {@linkcode http2OnlyProblem} when the server's first bytes are an HTTP/2 frame, else
 * undefined (an HTTP/1 answer, silence, a close or an error: the run tells those apart).
 */
export async function probeCleartextHttp2(
  url: URL,
  maxWaitMs = 1000,
): Promise<string | undefined> {
  const startedMs = performance.now();
  let conn: Deno.Conn;
  try {
    conn = await Deno.connect(hostAndPort(url));
  } catch {
    return undefined; // reachability is checkReachable's to report
  }
  const connectMs = performance.now() - startedMs;
  const waitMs = Math.min(maxWaitMs, PROBE_MIN_WAIT_MS + 4 * connectMs);
  const timer = setTimeout(() => closeQuietly(conn), waitMs);
  try {
    await conn.write(new TextEncoder().encode(probeHead(url)));
    const frame = await firstFrame(conn);
    return frame === undefined ? undefined : http2OnlyProblem(
      url,
      `it answered an HTTP/1.1 request with an HTTP/2 ${frame} frame`,
    );
  } catch {
    return undefined; // closed by the timer, or by the server
  } finally {
    clearTimeout(timer);
    closeQuietly(conn);
  }
}

/**
 * The probe's bytes: a request head without the blank line that would end it, so an HTTP/1.1
 * server waits for more (nginx logs the connection, closed mid-head, as a 400 with no bytes sent).
 * More than the 24 bytes of the HTTP/2 client preface, which nginx reads before judging it.
 */
export function probeHead(url: URL): string {
  return `HEAD / HTTP/1.1\r\nHost: ${url.host}\r\n${USER_AGENT_LINE}`;
}

/** Reads until the bytes are an HTTP/2 opening frame (its name) or cannot be one (undefined). */
async function firstFrame(conn: Deno.Conn): Promise<"SETTINGS" | "GOAWAY" | undefined> {
  const bytes = new Uint8Array(64);
  let got = 0;
  while (got < bytes.length) {
    const n = await conn.read(bytes.subarray(got));
    if (n === null) return undefined;
    got += n;
    if (!mayBeHttp2FrameStart(bytes, 0, got)) return http2OpeningFrame(bytes, 0, got);
  }
  return undefined;
}

/**
 * After a handshake with `url` offering ALPN `http/1.1` failed with `message`: when the server
 * refused it for its protocol (`no_application_protocol`) and takes a handshake offering `h2`,
 * {@linkcode http2OnlyProblem}; else undefined.
 */
export async function alpnHttp2Problem(
  url: URL,
  message: string,
  caCerts: readonly string[],
  timeoutMs = 3000,
): Promise<string | undefined> {
  if (!/NoApplicationProtocol|no.application.protocol/i.test(message)) return undefined;
  let conn: Deno.TlsConn | undefined;
  const timer = setTimeout(() => conn && closeQuietly(conn), timeoutMs);
  try {
    conn = await Deno.connectTls({
      ...hostAndPort(url),
      caCerts: [...caCerts],
      alpnProtocols: ["h2"],
    });
    const { alpnProtocol } = await conn.handshake();
    if (alpnProtocol !== "h2") return undefined;
    return http2OnlyProblem(url, "its TLS offers only ALPN h2, refusing http/1.1");
  } catch {
    return undefined;
  } finally {
    clearTimeout(timer);
    if (conn) closeQuietly(conn);
  }
}

/** The host (without an IPv6 address's brackets) and port `url` connects to. */
export function hostAndPort(url: URL): { hostname: string; port: number } {
  const hostname = url.hostname.replace(/^\[|\]$/g, "");
  return { hostname, port: Number(url.port || (url.protocol === "https:" ? 443 : 80)) };
}

function closeQuietly(conn: Deno.Conn): void {
  try {
    conn.close();
  } catch {
    // already closed
  }
}
