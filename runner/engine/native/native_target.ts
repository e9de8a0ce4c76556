/**
 * Whether a run takes the native I/O path, and where it connects: Linux, FFI permitted, a host
 * name that resolves, and for https OpenSSL 3 (libssl.so.3). Anything else (another OS, FFI
 * denied, no OpenSSL for https, a name that does not resolve, `TAILGATE_IO=deno`) takes Deno's
 * sockets, whose errors then say what went wrong as before.
 *
 * @module
 */
import { lookup } from "node:dns/promises";
import { type LibcNet, openLibcNet, socketAddress } from "./libc_net.ts";
import { openLibSsl, TlsContext } from "./libssl_tls.ts";

/** A target the native path can connect to. */
export interface NativeTarget {
  libc: LibcNet;
  /** The resolved `sockaddr` bytes. */
  address: Uint8Array;
  /** For https: the name the server's certificate must carry (see {@linkcode nativeTls}). */
  tlsHost?: string;
}

/**
 * The I/O path asked for: an explicit choice, else the `TAILGATE_IO` environment variable
 * (`native`, `deno` or `auto`), else `auto`: the native path wherever it can run (Linux, FFI
 * permitted, OpenSSL 3 for https), Deno's sockets elsewhere. Measured at 20k/s it costs a third
 * less CPU per request and times responses by the kernel's receive timestamps (docs/engine.md).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ioChoice } from "./native_target.ts";
 * assert.equal(ioChoice("deno"), "deno");
 * ```
 */
export function ioChoice(io: "auto" | "native" | "deno" | undefined): "auto" | "native" | "deno" {
  if (io !== undefined) return io;
  let env: string | undefined;
  try {
    env = Deno.env.get("TAILGATE_IO");
  } catch {
    env = undefined; // no env permission: auto
  }
  return env === "native" || env === "deno" ? env : "auto";
}

/**
 * The native target for `url`, or undefined when the run takes Deno's sockets (`io` "deno", or
 * "auto" where native cannot run). `native` asked for but impossible is an error, so a benchmark
 * never measures the wrong path.
 */
export async function nativeTarget(
  url: URL,
  io: "auto" | "native" | "deno" | undefined,
): Promise<NativeTarget | undefined> {
  const choice = io ?? "auto";
  if (choice === "deno") return undefined;
  const why = (reason: string) => {
    if (choice === "native") throw new Error(`the native I/O path cannot run: ${reason}`);
    return undefined;
  };
  const https = url.protocol === "https:";
  const libc = openLibcNet();
  if (libc === undefined) return why("needs Linux, glibc's libc.so.6 and --allow-ffi");
  if (https && openLibSsl() === undefined) return why("https needs OpenSSL 3 (libssl.so.3)");
  const host = url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
  const port = url.port === "" ? (https ? 443 : 80) : Number(url.port);
  try {
    const { address } = await lookup(host);
    return { libc, address: socketAddress(address, port), ...(https ? { tlsHost: host } : {}) };
  } catch (error) {
    return why(`${host} did not resolve (${error instanceof Error ? error.message : error})`);
  }
}

/**
 * An https target's TLS for its run: a context (the system's trust store and `caCerts`, ALPN `h2`
 * when `http2`, else `http/1.1`) and the name to check; undefined for plain HTTP. The run frees
 * the context once its connections are done.
 */
export function nativeTls(
  target: NativeTarget,
  http2: boolean,
  caCerts: readonly string[] = [],
): { context: TlsContext; host: string } | undefined {
  if (target.tlsHost === undefined) return undefined;
  const context = new TlsContext(openLibSsl()!, caCerts, [http2 ? "h2" : "http/1.1"]);
  return { context, host: target.tlsHost };
}
