/**
 * The one error a malformed header block raises.
 *
 * @module
 */

/**
 * A header block that breaks RFC 7541: an HTTP/2 peer answers it with a connection error of type
 * COMPRESSION_ERROR (RFC 7540 §4.3).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { HpackError } from "./hpack_error.ts";
 * const error = new HpackError("index 0");
 * assert.ok(error instanceof Error);
 * assert.equal(error.name, "HpackError");
 * ```
 */
export class HpackError extends Error {
  /** An error saying what in the block is malformed. */
  constructor(message: string) {
    super(message);
    this.name = "HpackError";
  }
}
