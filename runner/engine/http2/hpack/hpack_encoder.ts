/**
 * The sending half of HPACK, stateless: a block never touches a dynamic table, so it can be
 * computed once and sent on any connection any number of times.
 *
 * @module
 */
import { huffmanEncode, huffmanEncodedLength } from "./hpack_huffman.ts";
import { encodeInteger, integerLength } from "./hpack_integer.ts";
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
  const payload = Math.min(huffmanEncodedLength(text), text.length);
  return integerLength(payload, 7) + payload;
}

function writeString(text: string, into: Uint8Array, at: number): number {
  const huffmanBytes = huffmanEncodedLength(text);
  if (huffmanBytes < text.length) {
    at = encodeInteger(huffmanBytes, 7, 0x80, into, at);
    return huffmanEncode(text, into, at);
  }
  at = encodeInteger(text.length, 7, 0x00, into, at);
  for (let i = 0; i < text.length; i++) into[at++] = text.charCodeAt(i);
  return at;
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
