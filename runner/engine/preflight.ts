/**
 * Before a run: can the target be reached at all? A refused or unresolvable target is reported in
 * one sentence (exit code 4) instead of as a run full of errors.
 *
 * @module
 */

/**
 * Opens and closes one TCP connection to the URL's host and port. Returns undefined when it
 * succeeds, or what went wrong.
 *
 * @example
 * ```ts
 * import { checkReachable } from "./preflight.ts";
 * const problem = await checkReachable(new URL("http://127.0.0.1:8080/"));
 * if (problem) console.error(problem);
 * ```
 */
export async function checkReachable(url: URL, timeoutMs = 3000): Promise<string | undefined> {
  const hostname = url.hostname.replace(/^\[|\]$/g, "");
  const port = Number(url.port || (url.protocol === "https:" ? 443 : 80));
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const connecting = Deno.connect({ hostname, port });
    const timeout = new Promise<"timeout">((resolve) => {
      timer = setTimeout(() => resolve("timeout"), timeoutMs);
    });
    const first = await Promise.race([connecting, timeout]);
    if (first === "timeout") {
      connecting.then((c) => c.close(), () => {});
      return `${url.origin} did not accept a connection within ${timeoutMs} ms`;
    }
    first.close();
    return undefined;
  } catch (e) {
    if (e instanceof Deno.errors.ConnectionRefused) {
      return `${url.origin} refused the connection: is the target running?`;
    }
    return `${url.origin} cannot be reached: ${(e as Error).message}`;
  } finally {
    clearTimeout(timer);
  }
}
