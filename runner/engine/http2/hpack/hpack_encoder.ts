/**
 * The sending half of HPACK, stateless: a block never touches a dynamic table, so it can be
 * computed once and sent on any connection any number of times.
 *
 * @module
 */
import { huffmanEncode, huffmanEncodedLength } from "./hpack_huffman.ts";
import { encodeInteger, integerLength } from "./hpack_integer.ts";
import { latin1Bytes } from "./hpack_latin1.ts";
import { staticFieldIndex, staticNameIndex } from "./hpack_static_table.ts";

/**
 * Encodes `fields` as one header block: a field equal to a static-table entry as an indexed
 * field (RFC 7541 §6.1), else a literal without indexing (§6.2.2) whose name is the static index
 * when the table has the name; each string Huffman-coded when that is shorter. Throws a
 * `RangeError` for a name with an upper-case letter or a char above 0xff in a name or value.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { encodeHeaderBlock } from "./hpack_encoder.ts";
 * const block = encodeHeaderBlock([[":method", "GET"], [":path", "/a"]]);
 * // 0x82 is :method GET; 0x04 is :path (index 4) without indexing, then "/a" raw
 * assert.deepEqual(block, Uint8Array.of(0x82, 0x04, 0x02, 0x2f, 0x61));
 * ```
 */
export function encodeHeaderBlock(
  fields: ReadonlyArray<readonly [string, string]>,
): Uint8Array {
  let lengthBytes = 0;
  for (const [name, value] of fields) {
    checkName(name);
    checkValue(value);
    const index = staticFieldIndex(name, value);
    if (index !== 0) {
      lengthBytes += integerLength(index, 7);
      continue;
    }
    const nameIndex = staticNameIndex(name);
    lengthBytes += nameIndex !== 0 ? integerLength(nameIndex, 4) : 1 + stringLength(name);
    lengthBytes += stringLength(value);
  }
  const block = new Uint8Array(lengthBytes);
  let at = 0;
  for (const [name, value] of fields) {
    const index = staticFieldIndex(name, value);
    if (index !== 0) {
      at = encodeInteger(index, 7, 0x80, block, at);
      continue;
    }
    const nameIndex = staticNameIndex(name);
    if (nameIndex !== 0) {
      at = encodeInteger(nameIndex, 4, 0x00, block, at);
    } else {
      block[at++] = 0x00;
      at = writeString(name, block, at);
    }
    at = writeString(value, block, at);
  }
  return block;
}

/** Octets of `text` as a string literal (§5.2), the shorter of Huffman and raw. */
function stringLength(text: string): number {
  const bytes = latin1Bytes(text);
  const payload = Math.min(huffmanEncodedLength(bytes, 0, bytes.length), bytes.length);
  return integerLength(payload, 7) + payload;
}

function writeString(text: string, into: Uint8Array, at: number): number {
  return writeStringLiteral(latin1Bytes(text), 0, text.length, into, at);
}

/**
 * Writes `bytes[start, end)` as a string literal (RFC 7541 §5.2) into `into` at `at`, Huffman-coded
 * when that is shorter, else raw; returns the offset after it. `into` needs room for the raw form:
 * the length's integer (at most 5 octets below 2^28) and the octets.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { writeStringLiteral } from "./hpack_encoder.ts";
 * const into = new Uint8Array(8);
 * assert.equal(writeStringLiteral(Uint8Array.of(0x2f, 0x61), 0, 2, into, 0), 3); // "/a": raw, 2 octets
 * assert.deepEqual(into.subarray(0, 3), Uint8Array.of(0x02, 0x2f, 0x61));
 * ```
 */
export function writeStringLiteral(
  bytes: Uint8Array,
  start: number,
  end: number,
  into: Uint8Array,
  at: number,
): number {
  const huffmanBytes = huffmanEncodedLength(bytes, start, end);
  if (huffmanBytes < end - start) {
    at = encodeInteger(huffmanBytes, 7, 0x80, into, at);
    return huffmanEncode(bytes, start, end, into, at);
  }
  at = encodeInteger(end - start, 7, 0x00, into, at);
  into.set(bytes.subarray(start, end), at);
  return at + end - start;
}

function checkName(name: string): void {
  for (let i = 0; i < name.length; i++) {
    const char = name.charCodeAt(i);
    if ((char >= 0x41 && char <= 0x5a) || char > 0xff) {
      throw new RangeError(`header name ${JSON.stringify(name)} must be lower-case latin1`);
    }
  }
}

function checkValue(value: string): void {
  for (let i = 0; i < value.length; i++) {
    if (value.charCodeAt(i) > 0xff) {
      throw new RangeError(`header value ${JSON.stringify(value)} has a char above 0xff`);
    }
  }
}
