import assert from "node:assert/strict";
import {
  HUFFMAN_CODE_LENGTHS_BITS,
  HUFFMAN_CODES,
  huffmanDecode,
  huffmanEncode,
  huffmanEncodedLength,
  latin1Bytes,
} from "../../../../../runner/engine/http2/hpack/mod.ts";

function encode(text: string): Uint8Array {
  const bytes = latin1Bytes(text);
  const into = new Uint8Array(huffmanEncodedLength(bytes, 0, bytes.length));
  assert.equal(huffmanEncode(bytes, 0, bytes.length, into, 0), into.length);
  return into;
}

Deno.test("the canonical codes derived from the lengths equal RFC 7541 Appendix B's hex", () => {
  // [symbol, code as hex, length in bits], rows of Appendix B
  const rows: [number, number, number][] = [
    [0, 0x1ff8, 13],
    [10, 0x3ffffffc, 30],
    [32, 0x14, 6],
    [48, 0x0, 5],
    [97, 0x3, 5],
    [126, 0x1ffd, 13],
    [127, 0xffffffc, 28],
    [200, 0x3ffffe2, 26],
    [255, 0x3ffffee, 26],
    [256, 0x3fffffff, 30],
  ];
  for (const [symbol, code, length] of rows) {
    assert.equal(HUFFMAN_CODES[symbol], code, `code of ${symbol}`);
    assert.equal(HUFFMAN_CODE_LENGTHS_BITS[symbol], length, `length of ${symbol}`);
  }
});

Deno.test("the code is complete and prefix-free: Kraft's sum is exactly one", () => {
  let sum = 0;
  for (const length of HUFFMAN_CODE_LENGTHS_BITS) sum += 2 ** -length;
  assert.equal(sum, 1);
});

Deno.test("every one of the 256 octet values round-trips alone and all together", () => {
  let all = "";
  for (let octet = 0; octet < 256; octet++) {
    const text = String.fromCharCode(octet);
    const bytes = encode(text);
    assert.equal(huffmanDecode(bytes, 0, bytes.length), text, `octet ${octet}`);
    all += text;
  }
  const bytes = encode(all + all.split("").reverse().join(""));
  assert.equal(huffmanDecode(bytes, 0, bytes.length), all + all.split("").reverse().join(""));
});

Deno.test("huffmanDecode and huffmanEncode read only bytes[start, end) and write at the offset", () => {
  const into = new Uint8Array(20).fill(0xaa);
  const text = latin1Bytes("xxno-cachexx");
  const end = huffmanEncode(text, 2, 10, into, 3);
  assert.equal(end, 9);
  assert.deepEqual(into.subarray(3, 9), Uint8Array.of(0xa8, 0xeb, 0x10, 0x64, 0x9c, 0xbf));
  assert.equal(into[2], 0xaa);
  assert.equal(into[9], 0xaa);
  assert.equal(huffmanDecode(into, 3, 9), "no-cache");
  assert.equal(huffmanDecode(into, 3, 3), "");
});

Deno.test("a long string decodes past the initial scratch size", () => {
  const text = "0123456789".repeat(300);
  const bytes = encode(text);
  assert.equal(huffmanDecode(bytes, 0, bytes.length), text);
});
