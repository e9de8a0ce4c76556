/**
 * HPACK integers (RFC 7541 §5.1): an N-bit prefix, then 7 bits per continuation octet.
 *
 * @module
 */

/**
 * Octets `value` takes as an integer with a `prefixBits`-bit prefix.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { integerLength } from "./hpack_integer.ts";
 * assert.equal(integerLength(10, 5), 1); // RFC 7541 C.1.1
 * assert.equal(integerLength(1337, 5), 3); // C.1.2
 * ```
 */
export function integerLength(value: number, prefixBits: number): number {
  const prefixMax = (1 << prefixBits) - 1;
  if (value < prefixMax) return 1;
  let length = 2;
  for (let rest = value - prefixMax; rest >= 128; rest = Math.floor(rest / 128)) length++;
  return length;
}

/**
 * Writes `value` with a `prefixBits`-bit prefix at `into[at]`, OR-ing `flags` (the
 * representation's pattern bits) into the first octet; returns the offset after it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { encodeInteger } from "./hpack_integer.ts";
 * const into = new Uint8Array(3);
 * assert.equal(encodeInteger(1337, 5, 0, into, 0), 3);
 * assert.deepEqual(into, Uint8Array.of(0x1f, 0x9a, 0x0a)); // RFC 7541 C.1.2
 * ```
 */
export function encodeInteger(
  value: number,
  prefixBits: number,
  flags: number,
  into: Uint8Array,
  at: number,
): number {
  const prefixMax = (1 << prefixBits) - 1;
  if (value < prefixMax) {
    into[at++] = flags | value;
    return at;
  }
  into[at++] = flags | prefixMax;
  let rest = value - prefixMax;
  while (rest >= 128) {
    into[at++] = (rest % 128) | 0x80;
    rest = Math.floor(rest / 128);
  }
  into[at++] = rest;
  return at;
}
