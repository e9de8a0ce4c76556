/**
 * Waits for a study's server to accept connections on 127.0.0.1.
 *
 * @module
 */

/**
 * Resolves once `port` on 127.0.0.1 accepts a connection; throws after 10 s.
 *
 * @example
 * ```ts
 * import { waitForPort } from "./_wait_port.ts";
 * // await waitForPort(18080);
 * ```
 */
export async function waitForPort(port: number): Promise<void> {
  for (let i = 0; i < 100; i++) {
    try {
      (await Deno.connect({ hostname: "127.0.0.1", port })).close();
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`nothing answered on 127.0.0.1:${port}`);
}
