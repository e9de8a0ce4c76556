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
{
  const symbols = Array.from({ length: 257 }, (_, s) => s)
    .sort((a, b) => HUFFMAN_CODE_LENGTHS_BITS[a] - HUFFMAN_CODE_LENGTHS_BITS[b] || a - b);
  let code = -1;
  let length = 0;
  for (const symbol of symbols) {
    const symbolLength = HUFFMAN_CODE_LENGTHS_BITS[symbol];
    code = (code + 1) * 2 ** (symbolLength - length);
    length = symbolLength;
    HUFFMAN_CODES[symbol] = code;
  }
}

/*
 * Decoding walks the code tree 4 bits at a time. Its 257 leaves hang from exactly 256 inner
 * nodes, the decoder's states (0 is the root). NIBBLE_STEP[state << 4 | nibble] holds the state
 * after those 4 bits, whether a symbol ended within them (at most one: codes are 5 bits or more)
 * and which, or that EOS did.
 */
const EMITS = 0x100;
const HITS_EOS = 0x200;
const NIBBLE_STEP = new Uint32Array(256 * 16);
/** States whose path from the root is at most 7 ones: a string may end there (§5.2 padding). */
const MAY_END = new Uint8Array(256);
{
  // children[2 * node + bit]: an inner node, or ~symbol for a leaf.
  const children = new Int32Array(2 * 256);
  let nodes = 1;
  for (let symbol = 0; symbol <= EOS; symbol++) {
    const length = HUFFMAN_CODE_LENGTHS_BITS[symbol];
    let node = 0;
    for (let bit = length - 1; bit >= 0; bit--) {
      const slot = 2 * node + (Math.floor(HUFFMAN_CODES[symbol] / 2 ** bit) & 1);
      if (bit === 0) children[slot] = ~symbol;
      else node = children[slot] || (children[slot] = nodes++);
    }
  }
  for (let node = 0, ones = 0; ones <= 7; ones++, node = children[2 * node + 1]) {
    MAY_END[node] = 1;
  }
  for (let state = 0; state < 256; state++) {
    for (let nibble = 0; nibble < 16; nibble++) {
      let node = state;
      let step = 0;
      for (let bit = 3; bit >= 0; bit--) {
        const child = children[2 * node + ((nibble >>> bit) & 1)];
        if (child >= 0) {
          node = child;
          continue;
        }
        step |= ~child === EOS ? HITS_EOS : EMITS | (~child << 16);
        node = 0;
      }
      NIBBLE_STEP[(state << 4) | nibble] = step | node;
    }
  }
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
  let chars = 0;
  let state = 0;
  for (let i = start; i < end; i++) {
    const octet = bytes[i];
    let step = NIBBLE_STEP[(state << 4) | (octet >>> 4)];
    if (step & EMITS) out[chars++] = step >>> 16;
    step = NIBBLE_STEP[((step & 0xff) << 4) | (octet & 0xf)] | (step & HITS_EOS);
    if (step & EMITS) out[chars++] = step >>> 16;
    if (step & HITS_EOS) throw new HpackError("EOS inside a Huffman-coded string");
    state = step & 0xff;
  }
  if (!MAY_END[state]) throw new HpackError("invalid Huffman padding");
  return latin1String(out, 0, chars);
}

/**
 * Octets the Huffman coding of `bytes[start, end)` takes (RFC 7541 §5.2).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { huffmanEncodedLength } from "./hpack_huffman.ts";
 * const text = new TextEncoder().encode("www.example.com");
 * assert.equal(huffmanEncodedLength(text, 0, text.length), 12);
 * ```
 */
export function huffmanEncodedLength(bytes: Uint8Array, start: number, end: number): number {
  let bits = 0;
  for (let i = start; i < end; i++) bits += HUFFMAN_CODE_LENGTHS_BITS[bytes[i]];
  return (bits + 7) >>> 3;
}

/**
 * Writes the Huffman coding of `bytes[start, end)` into `into` at `at`, padded with the most
 * significant bits of EOS; returns the offset after it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { huffmanEncode } from "./hpack_huffman.ts";
 * const into = new Uint8Array(6);
 * const text = new TextEncoder().encode("no-cache");
 * assert.equal(huffmanEncode(text, 0, text.length, into, 0), 6);
 * assert.deepEqual(into, Uint8Array.of(0xa8, 0xeb, 0x10, 0x64, 0x9c, 0xbf));
 * ```
 */
export function huffmanEncode(
  bytes: Uint8Array,
  start: number,
  end: number,
  into: Uint8Array,
  at: number,
): number {
  // Fewer than 8 bits wait between codes, and a code longer than 16 bits goes in as two pieces
  // (its high bits first), so the int32 accumulator never holds more than 23 bits.
  let pending = 0;
  let pendingBits = 0;
  for (let i = start; i < end; i++) {
    const code = HUFFMAN_CODES[bytes[i]];
    const length = HUFFMAN_CODE_LENGTHS_BITS[bytes[i]];
    if (length > 16) {
      pending = (pending << (length - 16)) | (code >>> 16);
      pendingBits += length - 16;
      while (pendingBits >= 8) {
        pendingBits -= 8;
        into[at++] = pending >>> pendingBits;
      }
      pending = (pending << 16) | (code & 0xffff);
      pendingBits += 16;
    } else {
      pending = (pending << length) | code;
      pendingBits += length;
    }
    while (pendingBits >= 8) {
      pendingBits -= 8;
      into[at++] = pending >>> pendingBits;
    }
    pending &= (1 << pendingBits) - 1;
  }
  if (pendingBits > 0) {
    into[at++] = (pending << (8 - pendingBits)) | (0xff >>> pendingBits);
  }
  return at;
}
