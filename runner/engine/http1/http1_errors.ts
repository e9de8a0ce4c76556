/**
 * How an HTTP/1.1 connection reports what went wrong with a request: socket errors classified
 * into {@linkcode ErrorKind}s.
 *
 * @module
 */
import type { ErrorKind } from "../../model/mod.ts";

/**
 * A failure while connecting, already classified; thrown by a connect step so its caller can tell
 * it from an unexpected error.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ConnectFailure } from "./http1_errors.ts";
 * try {
 *   throw new ConnectFailure("refused");
 * } catch (error) {
 * assert.equal(  error instanceof ConnectFailure ? error.kind : "other", "refused");
 * }
 * ```
 */
export class ConnectFailure {
  constructor(readonly kind: ErrorKind) {}
}

/**
 * The kind of a socket error: `refused`, `reset` (reset, broken pipe, unexpected end, aborted),
 * `tls` (invalid data on a TLS connection), else `other`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { socketErrorKind } from "./http1_errors.ts";
 * assert.equal(socketErrorKind(new Deno.errors.ConnectionReset("peer reset"), false), "reset");
 * assert.equal(socketErrorKind(new Deno.errors.InvalidData("bad record"), true), "tls");
 * ```
 */
export function socketErrorKind(error: unknown, tls: boolean): ErrorKind {
  const code = (error as { code?: unknown } | null)?.code;
  if (error instanceof Deno.errors.ConnectionRefused || code === "ECONNREFUSED") return "refused";
  if (
    error instanceof Deno.errors.ConnectionReset || error instanceof Deno.errors.BrokenPipe ||
    error instanceof Deno.errors.UnexpectedEof ||
    error instanceof Deno.errors.ConnectionAborted || code === "ECONNRESET" || code === "EPIPE"
  ) return "reset";
  if (tls && error instanceof Deno.errors.InvalidData) return "tls";
  return "other";
}

/** What a run says when connects fail for want of file descriptors (a notice and a warning). */
export const OUT_OF_DESCRIPTORS_NOTE =
  "connections fail: too many open files (EMFILE): the requests they carried count as errors " +
  "`other`; raise the open-files limit (ulimit -n) or lower max_connections";

/**
 * Whether a socket error is the process (or system) running out of file descriptors (EMFILE,
 * ENFILE): worth naming, since the request then fails as `other` with no word of why.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { outOfDescriptors } from "./http1_errors.ts";
 * assert.equal(outOfDescriptors(new Error("Too many open files (os error 24)")), true);
 * ```
 */
export function outOfDescriptors(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error);
  return /\(os error 2[34]\)|too many open files/i.test(message);
}
