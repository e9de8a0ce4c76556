/**
 * Whether a run takes the native I/O path, and where it connects: plain HTTP, Linux, FFI
 * permitted, and a host name that resolves. Anything else (https, another OS, FFI denied, a name
 * that does not resolve, `TAILGATE_IO=deno`) takes Deno's sockets, whose errors then say what
 * went wrong as before.
 *
 * @module
 */
import { lookup } from "node:dns/promises";
import { type LibcNet, openLibcNet, socketAddress } from "./libc_net.ts";

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
  if (url.protocol !== "http:") return why("https targets use Deno's TLS");
  const libc = openLibcNet();
  if (libc === undefined) return why("needs Linux, glibc's libc.so.6 and --allow-ffi");
  const host = url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
  const port = url.port === "" ? 80 : Number(url.port);
  try {
    const { address } = await lookup(host);
    return { libc, address: socketAddress(address, port) };
  } catch (error) {
    return why(`${host} did not resolve (${error instanceof Error ? error.message : error})`);
  }
}
