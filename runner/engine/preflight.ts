/**
 * Before a run: can the target be reached at all, does an https target's certificate hold, and
 * does it speak HTTP/1.1 rather than only HTTP/2? A refused or unresolvable target, an untrusted
 * certificate or an HTTP/2-only server is reported in one sentence (exit code 4) instead of as a
 * run full of errors.
 *
 * @module
 */
import { TLS_HTTP1 } from "./http1/mod.ts";
import { alpnHttp2Problem, hostAndPort, probeCleartextHttp2 } from "./http2_preflight.ts";
import { h2AlpnProblem, h2AlpnRefused, probeH2c, refusedAlpn } from "./http2/mod.ts";
import { ioChoice, nativeTarget, nativeTlsHandshake, openLibSsl } from "./native/mod.ts";
import { CA_AS_END_ENTITY, caUsedAsEndEntity, tlsProblem } from "./tls_problem.ts";

/**
 * Opens and closes one TCP connection to the URL's host and port. Returns undefined when it
 * succeeds, or what went wrong.
 */
export async function checkReachable(url: URL, timeoutMs = 3000): Promise<string | undefined> {
  try {
    const conn = await within(Deno.connect(hostAndPort(url)), timeoutMs);
    if (conn === undefined) {
      return `${url.origin} did not accept a connection within ${timeoutMs} ms`;
    }
    conn.close();
    return undefined;
  } catch (e) {
    if (e instanceof Deno.errors.ConnectionRefused) {
      return `${url.origin} refused the connection: is the target running?`;
    }
    return `${url.origin} cannot be reached: ${(e as Error).message}`;
  }
}

/**
 * What a run needs of its target before anything is sent: a connection ({@linkcode checkReachable})
 * that does not speak only HTTP/2, and, for https, a TLS handshake trusting the system's
 * certificates and `caCerts` (PEM, as `--ca-cert` gives them), offering ALPN `http/1.1` the way
 * the run's connections make it. No request is sent: a cleartext target gets the start of a head
 * (http2_preflight.ts). Returns undefined when all hold, or what went wrong: an untrusted
 * certificate names `--ca-cert`, one issued for another name says so, a server that speaks only
 * HTTP/2 (h2c, or ALPN `h2` alone) says so and how to reach HTTP/1.1.
 *
 * `http` "2" (`load.http: 2`) checks the other way round: an https target's handshake offers ALPN
 * `h2` alone and must settle on it; a cleartext one must answer the HTTP/2 preface with SETTINGS.
 */
export async function checkTarget(
  url: URL,
  caCerts: readonly string[] = [],
  timeoutMs = 3000,
  http: "1.1" | "2" = "1.1",
): Promise<string | undefined> {
  const unreachable = await checkReachable(url, timeoutMs);
  if (unreachable) return unreachable;
  const h2 = http === "2";
  if (url.protocol !== "https:") {
    return h2
      ? await probeH2c(url, hostAndPort(url), timeoutMs)
      : await probeCleartextHttp2(url, timeoutMs);
  }
  let alpn: string | null = null;
  const handshake = Deno.connectTls({
    ...(h2 ? { alpnProtocols: ["h2"] } : TLS_HTTP1),
    ...hostAndPort(url),
    caCerts: [...caCerts],
  })
    .then(async (conn) => {
      try {
        alpn = (await conn.handshake()).alpnProtocol;
        return conn;
      } catch (e) {
        conn.close();
        throw e;
      }
    });
  try {
    const conn = await within(handshake, timeoutMs);
    if (conn === undefined) {
      return `${url.origin} did not complete a TLS handshake within ${timeoutMs} ms`;
    }
    conn.close();
    return h2 ? h2AlpnProblem(url, alpn) : undefined;
  } catch (e) {
    const message = (e as Error).message;
    if (caUsedAsEndEntity(message)) return await opensslCheck(url, caCerts, timeoutMs, h2);
    if (h2) return refusedAlpn(message) ? h2AlpnRefused(url) : tlsProblem(url, message);
    return await alpnHttp2Problem(url, message, caCerts, timeoutMs) ?? tlsProblem(url, message);
  }
}

/**
 * A certificate Deno's TLS refuses as a CA's (CA:TRUE) is checked again as the run's connections
 * will check it: on the native path, by OpenSSL, which takes a trusted self-signed certificate as
 * the end entity it is (so does curl). A run on Deno's sockets is told the cause and the fixes.
 */
async function opensslCheck(
  url: URL,
  caCerts: readonly string[],
  timeoutMs: number,
  h2: boolean,
): Promise<string | undefined> {
  const lib = openLibSsl();
  const native = lib && await nativeTarget(url, ioChoice(undefined)).catch(() => undefined);
  if (lib === undefined || native === undefined) {
    return `${url.origin}: ${CA_AS_END_ENTITY}, or leave TAILGATE_IO unset on Linux with OpenSSL 3`;
  }
  const shook = await nativeTlsHandshake(lib, hostAndPort(url), caCerts, [
    h2 ? "h2" : "http/1.1",
  ], timeoutMs);
  if (!shook.ok) {
    const message = shook.problems[0].message;
    return h2 && refusedAlpn(message) ? h2AlpnRefused(url) : tlsProblem(url, message);
  }
  return h2 ? h2AlpnProblem(url, shook.value) : undefined;
}

/**
 * `connecting`'s connection, or undefined when it takes longer than `timeoutMs` (a connection that
 * arrives later is closed); its rejection passes through.
 */
async function within<T extends Deno.Conn>(
  connecting: Promise<T>,
  timeoutMs: number,
): Promise<T | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), timeoutMs);
  });
  try {
    const first = await Promise.race([connecting, timeout]);
    if (first === undefined) connecting.then((c) => c.close(), () => {});
    return first;
  } finally {
    clearTimeout(timer);
  }
}

/** Descriptors kept aside for everything but the plan's connections (workers, files, stdio). */
export const RESERVED_DESCRIPTORS = 64;

/**
 * This process's soft limit on open files (`ulimit -n`), read from `/proc/self/limits`;
 * undefined where that cannot be read (not Linux) or the limit is unlimited.
 */
export async function openFilesLimit(): Promise<number | undefined> {
  let text: string;
  try {
    text = await Deno.readTextFile("/proc/self/limits");
  } catch {
    return undefined;
  }
  const soft = /^Max open files\s+(\S+)/m.exec(text)?.[1];
  const limit = soft === undefined ? NaN : Number(soft);
  return Number.isFinite(limit) ? limit : undefined;
}

/**
 * A sentence when `maxConnections` sockets, with {@linkcode RESERVED_DESCRIPTORS} more, would not
 * fit under the open-files limit `limit`; undefined when they fit or the limit is unknown.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { descriptorProblem } from "./preflight.ts";
 * descriptorProblem(100_000, 1024); // "the plan may open up to 100000 connections ..."
 * assert.equal(descriptorProblem(50, 1024), undefined);
 * ```
 */
export function descriptorProblem(
  maxConnections: number,
  limit: number | undefined,
): string | undefined {
  if (limit === undefined || maxConnections + RESERVED_DESCRIPTORS <= limit) return undefined;
  const fits = limit - RESERVED_DESCRIPTORS;
  return `the plan may open up to ${maxConnections} connections (load.max_connections) and ` +
    `tailgate needs about ${RESERVED_DESCRIPTORS} files of its own, but this process may open ` +
    `only ${limit} (ulimit -n): raise the limit (ulimit -n ${
      maxConnections + RESERVED_DESCRIPTORS
    })` +
    (fits >= 1 ? ` or lower max_connections to ${fits} or fewer` : "");
}
