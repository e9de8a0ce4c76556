/**
 * The HPACK Huffman code (RFC 7541 §5.2, Appendix B): decoding with padding checks, encoding.
 *
 * Appendix B's code is canonical: ordered by (length, symbol), each code is the previous one plus
 * one, shifted left by the growth in length. So the 257 lengths below, copied from the spec's
 * "len in bits" column, determine every code; the tests check the derived codes against the
 * spec's hex column.
 *
 * @module
 */
import { HpackError } from "./hpack_error.ts";
import { latin1String } from "./hpack_latin1.ts";

/** The end-of-string symbol; its code (30 ones) must never occur inside a string. */
const EOS = 256;

/**
 * Code length in bits of each symbol 0 to 256 (EOS), RFC 7541 Appendix B.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { HUFFMAN_CODE_LENGTHS_BITS } from "./hpack_huffman.ts";
 * assert.equal(HUFFMAN_CODE_LENGTHS_BITS["a".charCodeAt(0)], 5);
 * assert.equal(HUFFMAN_CODE_LENGTHS_BITS[256], 30);
 * ```
 */
// deno-fmt-ignore
export const HUFFMAN_CODE_LENGTHS_BITS: Uint8Array = Uint8Array.of(
  13, 23, 28, 28, 28, 28, 28, 28, 28, 24, 30, 28, 28, 30, 28, 28,
  28, 28, 28, 28, 28, 28, 30, 28, 28, 28, 28, 28, 28, 28, 28, 28,
  6, 10, 10, 12, 13, 6, 8, 11, 10, 10, 8, 11, 8, 6, 6, 6,
  5, 5, 5, 6, 6, 6, 6, 6, 6, 6, 7, 8, 15, 6, 12, 10,
  13, 6, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7,
  7, 7, 7, 7, 7, 7, 7, 7, 8, 7, 8, 13, 19, 13, 14, 6,
  15, 5, 6, 5, 6, 5, 6, 6, 6, 5, 7, 7, 6, 6, 6, 5,
  6, 7, 6, 5, 5, 6, 7, 7, 7, 7, 7, 15, 11, 14, 13, 28,
  20, 22, 20, 20, 22, 22, 22, 23, 22, 23, 23, 23, 23, 23, 24, 23,
  24, 24, 22, 23, 24, 23, 23, 23, 23, 21, 22, 23, 22, 23, 23, 24,
  22, 21, 20, 22, 22, 23, 23, 21, 23, 22, 22, 24, 21, 22, 23, 23,
  21, 21, 22, 21, 23, 22, 23, 23, 20, 22, 22, 22, 23, 22, 22, 23,
  26, 26, 20, 19, 22, 23, 22, 25, 26, 26, 26, 27, 27, 26, 24, 25,
  19, 21, 26, 27, 27, 26, 27, 24, 21, 21, 26, 26, 28, 27, 27, 27,
  20, 24, 20, 21, 22, 21, 21, 23, 22, 22, 25, 25, 24, 24, 26, 23,
  26, 27, 26, 26, 27, 27, 27, 27, 27, 28, 27, 27, 27, 27, 27, 26,
  30,
);

const MAX_CODE_BITS = 30;
/** Symbols ordered by (length, symbol): the canonical order. */
const SORTED_SYMBOLS = Uint16Array.from({ length: 257 }, (_, s) => s)
  .sort((a, b) => HUFFMAN_CODE_LENGTHS_BITS[a] - HUFFMAN_CODE_LENGTHS_BITS[b] || a - b);
/** Per length: the first code of that length, how many codes have it, their rank in the order. */
const FIRST_CODE = new Int32Array(MAX_CODE_BITS + 1);
const CODE_COUNT = new Int32Array(MAX_CODE_BITS + 1);
const FIRST_RANK = new Int32Array(MAX_CODE_BITS + 1);

/**
 * The code of each symbol 0 to 256, right-aligned in `HUFFMAN_CODE_LENGTHS_BITS[s]` bits.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { HUFFMAN_CODES } from "./hpack_huffman.ts";
 * assert.equal(HUFFMAN_CODES["0".charCodeAt(0)], 0x0);
 * assert.equal(HUFFMAN_CODES[256], 0x3fffffff);
 * ```
 */
export const HUFFMAN_CODES: Uint32Array = new Uint32Array(257);

/** Entry for each 8-bit prefix: `symbol << 4 | length` when a code of 8 bits or fewer starts it. */
const BYTE_PREFIX = new Uint16Array(256);

{
  let code = 0;
  let length = HUFFMAN_CODE_LENGTHS_BITS[SORTED_SYMBOLS[0]];
  SORTED_SYMBOLS.forEach((symbol, rank) => {
    const symbolLength = HUFFMAN_CODE_LENGTHS_BITS[symbol];
    if (rank > 0) code = (code + 1) << (symbolLength - length);
    length = symbolLength;
    HUFFMAN_CODES[symbol] = code;
    if (CODE_COUNT[length]++ === 0) {
      FIRST_CODE[length] = code;
      FIRST_RANK[length] = rank;
    }
    if (length <= 8) {
      const from = code << (8 - length);
      BYTE_PREFIX.fill((symbol << 4) | length, from, from + (1 << (8 - length)));
    }
  });
}

/** Reused output of {@linkcode huffmanDecode}; grows, never shrinks. */
let scratch = new Uint8Array(256);

/**
 * Decodes the Huffman-coded string in `bytes[start, end)` as latin1 (RFC 7541 §5.2). Throws
 * {@linkcode HpackError} on padding longer than 7 bits or not all ones, and on EOS.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { huffmanDecode } from "./hpack_huffman.ts";
 * // RFC 7541 C.4.1
 * const bytes = Uint8Array.of(0xf1, 0xe3, 0xc2, 0xe5, 0xf2, 0x3a, 0x6b, 0xa0, 0xab, 0x90, 0xf4, 0xff);
 * assert.equal(huffmanDecode(bytes, 0, bytes.length), "www.example.com");
 * ```
 */
export function huffmanDecode(bytes: Uint8Array, start: number, end: number): string {
  // Every code is at least 5 bits long.
  const maxChars = ((end - start) * 8 / 5) | 0;
  if (scratch.length < maxChars) scratch = new Uint8Array(Math.max(maxChars, scratch.length * 2));
  const out = scratch;
  const totalBits = (end - start) * 8;
  let chars = 0;
  let bitPos = 0;
  while (bitPos < totalBits) {
    // Past `end` the input reads as ones, which is what valid padding looks like.
    const byteAt = start + (bitPos >>> 3);
    const high = byteAt < end ? bytes[byteAt] : 0xff;
    const low = byteAt + 1 < end ? bytes[byteAt + 1] : 0xff;
    const peek = (((high << 8) | low) >>> (8 - (bitPos & 7))) & 0xff;
    const bitsLeft = totalBits - bitPos;
    const entry = BYTE_PREFIX[peek];
    let symbol: number;
    let length: number;
    if (entry !== 0) {
      symbol = entry >>> 4;
      length = entry & 0xf;
    } else {
      const packed = longCode(bytes, start, end, bitPos, peek);
      symbol = packed >>> 5;
      length = packed & 0x1f;
    }
    if (length > bitsLeft) {
      // RFC 7541 §5.2: the tail must be a prefix of EOS (all ones) of at most 7 bits.
      if (bitsLeft > 7 || peek !== 0xff) throw new HpackError("invalid Huffman padding");
      break;
    }
    if (symbol === EOS) throw new HpackError("EOS inside a Huffman-coded string");
    out[chars++] = symbol;
    bitPos += length;
  }
  return latin1String(out, 0, chars);
}

/**
 * `symbol << 5 | length` of the code longer than 8 bits starting at `bitPos`, found by the
 * canonical search: the first length whose codes range holds the prefix read so far.
 */
function longCode(
  bytes: Uint8Array,
  start: number,
  end: number,
  bitPos: number,
  firstByte: number,
): number {
  let code = firstByte;
  for (let length = 9; length <= MAX_CODE_BITS; length++) {
    const bit = bitPos + length - 1;
    const byteAt = start + (bit >>> 3);
    const byte = byteAt < end ? bytes[byteAt] : 0xff;
    code = (code << 1) | ((byte >>> (7 - (bit & 7))) & 1);
    const rank = code - FIRST_CODE[length];
    if (rank >= 0 && rank < CODE_COUNT[length]) {
      return (SORTED_SYMBOLS[FIRST_RANK[length] + rank] << 5) | length;
    }
  }
  throw new HpackError("invalid Huffman code"); // unreachable: the code is complete
}

/**
 * Octets the Huffman coding of `text` takes (RFC 7541 §5.2); chars must be at most 0xff.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { huffmanEncodedLength } from "./hpack_huffman.ts";
 * assert.equal(huffmanEncodedLength("www.example.com"), 12);
 * ```
 */
export function huffmanEncodedLength(text: string): number {
  let bits = 0;
  for (let i = 0; i < text.length; i++) bits += HUFFMAN_CODE_LENGTHS_BITS[text.charCodeAt(i)];
  return Math.ceil(bits / 8);
}

/**
 * Writes the Huffman coding of `text` (chars at most 0xff) into `into` at `at`, padded with the
 * most significant bits of EOS; returns the offset after it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { huffmanEncode } from "./hpack_huffman.ts";
 * const into = new Uint8Array(6);
 * assert.equal(huffmanEncode("no-cache", into, 0), 6);
 * assert.deepEqual(into, Uint8Array.of(0xa8, 0xeb, 0x10, 0x64, 0x9c, 0xbf));
 * ```
 */
export function huffmanEncode(text: string, into: Uint8Array, at: number): number {
  // Floats, not int32: pending bits (< 8) plus a code (<= 30 bits) can pass 32 bits.
  let pending = 0;
  let pendingBits = 0;
  for (let i = 0; i < text.length; i++) {
    const symbol = text.charCodeAt(i);
    const length = HUFFMAN_CODE_LENGTHS_BITS[symbol];
    pending = pending * 2 ** length + HUFFMAN_CODES[symbol];
    pendingBits += length;
    while (pendingBits >= 8) {
      pendingBits -= 8;
      const scale = 2 ** pendingBits;
      const byte = Math.floor(pending / scale);
      into[at++] = byte & 0xff;
      pending -= byte * scale;
    }
  }
  if (pendingBits > 0) {
    into[at++] = (pending << (8 - pendingBits)) | (0xff >>> pendingBits);
  }
  return at;
}
