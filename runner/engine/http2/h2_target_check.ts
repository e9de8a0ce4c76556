/**
 * Before an HTTP/2 run (`load.http: 2`): does the target speak HTTP/2 the way the run will ask?
 * Over TLS a handshake offering ALPN `h2` alone must settle on `h2` (no silent fallback to
 * HTTP/1.1); in cleartext the HTTP/2 client preface and an empty SETTINGS frame must draw the
 * server's SETTINGS frame (h2c with prior knowledge). A server that does not agree is named with
 * the fix; no request is sent.
 *
 * @module
 */

/** The HTTP/2 client connection preface (RFC 9113 §3.4) and an empty SETTINGS frame. */
const PREFACE = new Uint8Array([
  ...new TextEncoder().encode("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"),
  ...[0, 0, 0, 4, 0, 0, 0, 0, 0],
]);

const TLS_FIX = "have the server offer h2 by ALPN (nginx: `listen … ssl http2`), or leave " +
  "load.http at 1.1";
const CLEARTEXT_FIX = "point the plan at a port that speaks h2c (nginx: `listen … http2`), use " +
  "https:// for h2 by ALPN, or leave load.http at 1.1";

/**
 * The problem of a TLS server whose handshake, offered ALPN `h2` alone, settled on `alpnProtocol`
 * (null: none); undefined when it is `h2`.
 */
export function h2AlpnProblem(url: URL, alpnProtocol: string | null): string | undefined {
  if (alpnProtocol === "h2") return undefined;
  return `${url.origin} did not agree to HTTP/2 by ALPN (it chose ${
    alpnProtocol ?? "no protocol"
  }), and the plan asks for load.http: 2, which never falls back to HTTP/1.1: ${TLS_FIX}`;
}

/** Whether `message` (a failed handshake's) is the server refusing every protocol offered. */
export function refusedAlpn(message: string): boolean {
  return /NoApplicationProtocol|no.application.protocol/i.test(message);
}

/** The problem of a TLS server that refused a handshake offering only `h2`. */
export function h2AlpnRefused(url: URL): string {
  return `${url.origin} refused a TLS handshake offering ALPN h2 (no_application_protocol): it ` +
    `does not speak HTTP/2 over TLS, and the plan asks for load.http: 2: ${TLS_FIX}`;
}

/**
 * Sends the HTTP/2 preface to the cleartext `url` and reads the answer for up to `waitMs`: undefined
 * when it starts with a SETTINGS frame on stream 0, else what came back, with the fix.
 */
export async function probeH2c(
  url: URL,
  address: { hostname: string; port: number },
  waitMs = 1000,
): Promise<string | undefined> {
  let conn: Deno.Conn;
  try {
    conn = await Deno.connect(address);
  } catch {
    return undefined; // reachability is checkReachable's to report
  }
  const timer = setTimeout(() => closeQuietly(conn), waitMs);
  // A frame header is 9 bytes; more room shows an HTTP/1 status line whole.
  const head = new Uint8Array(64);
  let got = 0;
  try {
    await conn.write(PREFACE);
    while (got < 9) {
      const n = await conn.read(head.subarray(got));
      if (n === null) break;
      got += n;
    }
  } catch {
    // closed by the timer (silence) or by the server
  } finally {
    clearTimeout(timer);
    closeQuietly(conn);
  }
  if (got >= 9 && head[3] === 4 && (head[5] | head[6] | head[7] | head[8]) === 0) return undefined;
  const text = new TextDecoder().decode(head.subarray(0, got));
  const answer = got === 0
    ? `sent nothing back within ${waitMs} ms`
    : text.startsWith("HTTP/")
    ? `answered in HTTP/1 (${text.split("\r\n")[0]})`
    : "answered with bytes that are not an HTTP/2 SETTINGS frame";
  return `${url.origin} does not speak cleartext HTTP/2 (h2c with prior knowledge): it ${answer} ` +
    `to the HTTP/2 preface, and the plan asks for load.http: 2: ${CLEARTEXT_FIX}`;
}

function closeQuietly(conn: Deno.Conn): void {
  try {
    conn.close();
  } catch {
    // already closed
  }
}
