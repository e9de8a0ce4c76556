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

/** Descriptors kept aside for everything but the plan's connections (workers, files, stdio). */
export const RESERVED_DESCRIPTORS = 64;

/**
 * This process's soft limit on open files (`ulimit -n`), read from `/proc/self/limits`;
 * undefined where that cannot be read (not Linux) or the limit is unlimited.
 *
 * @example
 * ```ts
 * import { openFilesLimit } from "./preflight.ts";
 * const limit = await openFilesLimit(); // e.g. 1024
 * ```
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
 * import { descriptorProblem } from "./preflight.ts";
 * descriptorProblem(100_000, 1024); // "the plan may open up to 100000 connections ..."
 * descriptorProblem(50, 1024); // undefined
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
