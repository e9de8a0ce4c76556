/**
 * Header octets as a string, one char per byte (ISO-8859-1). Not `TextDecoder("latin1")`: the
 * WHATWG label maps to windows-1252, which changes 0x80 to 0x9f.
 *
 * @module
 */

/** Octets per `String.fromCharCode.apply` call, well under any engine's argument limit. */
const CHUNK_BYTES = 4096;
/** Up to this length a loop of concatenations beats `apply`. */
const SHORT_BYTES = 8;
/** Reused argument list for `apply`: a plain array is faster to spread than a subarray. */
const charCodes: number[] = [];

/**
 * `bytes[start, end)` as a string of the same length, char `i` being octet `start + i`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { latin1String } from "./hpack_latin1.ts";
 * assert.equal(latin1String(new Uint8Array([0x41, 0x80, 0xff]), 0, 3), "A\x80\xff");
 * ```
 */
export function latin1String(bytes: Uint8Array, start: number, end: number): string {
  const length = end - start;
  if (length <= SHORT_BYTES) {
    let text = "";
    for (let i = start; i < end; i++) text += String.fromCharCode(bytes[i]);
    return text;
  }
  if (length <= CHUNK_BYTES) {
    charCodes.length = length;
    for (let i = 0; i < length; i++) charCodes[i] = bytes[start + i];
    return String.fromCharCode.apply(null, charCodes);
  }
  let text = "";
  for (let at = start; at < end; at += CHUNK_BYTES) {
    const chunk = bytes.subarray(at, Math.min(end, at + CHUNK_BYTES));
    text += String.fromCharCode.apply(null, chunk as unknown as number[]);
  }
  return text;
}

/**
 * `text` as octets, one per char; every char must be at most 0xff (the caller checks).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { latin1Bytes } from "./hpack_latin1.ts";
 * assert.deepEqual(latin1Bytes("é!"), Uint8Array.of(0xe9, 0x21));
 * ```
 */
export function latin1Bytes(text: string): Uint8Array {
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
}
