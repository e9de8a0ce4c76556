/**
 * Whether an address to listen on stays on this machine.
 *
 * @module
 */

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

/**
 * True for `localhost`, any address in 127.0.0.0/8 (also IPv4-mapped, `::ffff:127.0.0.1`) and
 * `::1`, with or without brackets. Everything else, `0.0.0.0` and `::` included, is not loopback.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isLoopbackHostname } from "./loopback.ts";
 * assert.equal(isLoopbackHostname("127.0.0.2"), true);
 * assert.equal(isLoopbackHostname("[::1]"), true);
 * assert.equal(isLoopbackHostname("0.0.0.0"), false);
 * ```
 */
export function isLoopbackHostname(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[(.*)\]$/, "$1");
  if (host === "localhost" || host === "::1" || host === "0:0:0:0:0:0:0:1") return true;
  const v4 = host.startsWith("::ffff:") ? host.slice("::ffff:".length) : host;
  const octets = IPV4.exec(v4)?.slice(1).map(Number);
  return octets !== undefined && octets[0] === 127 && octets.every((o) => o <= 255);
}
