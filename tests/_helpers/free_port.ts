/**
 * A free loopback port for a test that must name one before a server takes it (a target started
 * by a command): bound once by the OS, then released.
 *
 * @module
 */

/**
 * A port on 127.0.0.1 that was free a moment ago.
 *
 * @example
 * ```ts
 * import { freePort } from "./free_port.ts";
 * freePort() > 0; // true
 * ```
 */
export function freePort(): number {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  return port;
}
