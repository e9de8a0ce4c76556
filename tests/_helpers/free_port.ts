/**
 * A free loopback port for a test that must name one before a server takes it (a target started
 * by a command): bound once by the OS, then released.
 *
 * @module
 */

/**
 * A port on 127.0.0.1 that was free a moment ago, drawn below the kernel's ephemeral range.
 *
 * @example
 * ```ts
 * import { freePort } from "./free_port.ts";
 * freePort() > 0; // true
 * ```
 */
export function freePort(): number {
  // Below Linux's ephemeral range (32768-60999): port 0 binds of the other tests' servers and the
  // local ports of their connections never take it between its release here and the server's bind.
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    try {
      Deno.listen({ hostname: "127.0.0.1", port }).close();
      return port;
    } catch {
      // Taken: another.
    }
  }
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  return port;
}
