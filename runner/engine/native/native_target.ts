/**
 * Whether a run takes the native I/O path, and where it connects: plain HTTP (or HTTP/2 over TLS,
 * where OpenSSL 3 opens), Linux, FFI permitted, and a host name that resolves. Anything else (https, another OS, FFI denied, a name
 * that does not resolve, `TAILGATE_IO=deno`) takes Deno's sockets, whose errors then say what
 * went wrong as before.
 *
 * @module
 */
import { lookup } from "node:dns/promises";
import { type LibcNet, openLibcNet, socketAddress } from "./libc_net.ts";
import { openLibSsl } from "./libssl_tls.ts";

/** A target the native path can connect to. */
export interface NativeTarget {
  libc: LibcNet;
  /** The resolved `sockaddr` bytes. */
  address: Uint8Array;
}

/**
 * The I/O path asked for: an explicit choice, else the `TAILGATE_IO` environment variable
 * (`native`, `deno` or `auto`), else `auto`: the native path wherever it can run (plain HTTP,
 * Linux, FFI permitted), Deno's sockets elsewhere. Measured at 20k/s it costs a third less CPU
 * per request and times responses by the kernel's receive timestamps (docs/engine.md).
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
 * The native target for `url` (`http2`: the run speaks HTTP/2, which the native path also carries
 * over TLS), or undefined when the run takes Deno's sockets (`io` "deno", or "auto" where native
 * cannot run). `native` asked for but impossible is an error, so a benchmark
 * never measures the wrong path.
 */
export async function nativeTarget(
  url: URL,
  io: "auto" | "native" | "deno" | undefined,
  http2 = false,
): Promise<NativeTarget | undefined> {
  const choice = io ?? "auto";
  if (choice === "deno") return undefined;
  const why = (reason: string) => {
    if (choice === "native") throw new Error(`the native I/O path cannot run: ${reason}`);
    return undefined;
  };
  const https = url.protocol === "https:";
  if (https && !http2) return why("HTTP/1.1 over TLS uses Deno's TLS");
  const libc = openLibcNet();
  if (libc === undefined) return why("needs Linux, glibc's libc.so.6 and --allow-ffi");
  if (https && openLibSsl() === undefined) return why("h2 over TLS needs OpenSSL 3 (libssl.so.3)");
  const host = url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
  const port = url.port === "" ? (https ? 443 : 80) : Number(url.port);
  try {
    const { address } = await lookup(host);
    return { libc, address: socketAddress(address, port) };
  } catch (error) {
    return why(`${host} did not resolve (${error instanceof Error ? error.message : error})`);
  }
}
