import assert from "node:assert/strict";
import { encodeHeaderBlock, HpackDecoder } from "../../../../../runner/engine/http2/hpack/mod.ts";
import { decodeFields, hex } from "./_hex.ts";

const REQUEST: [string, string][] = [
  [":method", "GET"],
  [":scheme", "https"],
  [":path", "/api/v1/items?page=2"],
  [":authority", "shop.example.com"],
  ["user-agent", "tailgate/0.1.0"],
  ["accept", "*/*"],
  ["x-request-id", "0f3a"],
  ["accept-encoding", "gzip, deflate"],
];

Deno.test("a block round-trips through HpackDecoder and leaves its table empty", () => {
  const decoder = new HpackDecoder();
  const block = encodeHeaderBlock(REQUEST);
  assert.deepEqual(decodeFields(decoder, block), REQUEST);
  assert.equal(decoder.tableLength, 0);
  // Stateless: the same bytes decode the same on this connection again and on another.
  assert.deepEqual(decodeFields(decoder, block), REQUEST);
  assert.deepEqual(decodeFields(new HpackDecoder(0), block), REQUEST);
  assert.deepEqual(encodeHeaderBlock(REQUEST), block);
});

Deno.test("a field equal to a static entry is one indexed octet", () => {
  assert.deepEqual(
    encodeHeaderBlock([[":method", "GET"], [":status", "200"], [
      "accept-encoding",
      "gzip, deflate",
    ]]),
    hex("82 88 90"),
  );
});

Deno.test("a static name with another value is a literal without indexing on its index", () => {
  // The name is :path (index 4); the value Huffman-coded.
  const block = encodeHeaderBlock([[":path", "/sample/path"]]);
  assert.equal(block[0], 0x04);
  assert.equal(block[1] & 0x80, 0x80, "Huffman, being shorter");
  // An index of 15 or more continues past the 4-bit prefix (§5.1).
  assert.deepEqual(encodeHeaderBlock([["www-authenticate", "\x00"]]), hex("0f 2e 01 00"));
});

Deno.test("a name outside the static table is a literal name, index 0", () => {
  const block = encodeHeaderBlock([["x-a", "\x00"]]);
  // 0x00, then "x-a" raw (Huffman would take 3 octets too), then the raw 1-octet value.
  assert.deepEqual(block, hex("00 03 78 2d 61 01 00"));
});

Deno.test("each string is Huffman-coded only when that is shorter", () => {
  // RFC 7541 C.4.1: www.example.com takes 12 octets Huffman-coded instead of 15.
  assert.deepEqual(
    encodeHeaderBlock([[":authority", "www.example.com"]]),
    hex("01 8c f1e3 c2e5 f23a 6ba0 ab90 f4ff"),
  );
  // Control octets take 13 to 30 bits each: raw.
  assert.deepEqual(encodeHeaderBlock([[":authority", "\x01\x02"]]), hex("01 02 01 02"));
});

Deno.test("latin1 values, long values and long names round-trip", () => {
  const fields: [string, string][] = [
    ["x-latin1", "caf\xe9 \x80\xff"],
    ["x-long", "v".repeat(5000)],
    ["x-" + "n".repeat(300), ""],
    ["cookie", ""],
  ];
  assert.deepEqual(decodeFields(new HpackDecoder(), encodeHeaderBlock(fields)), fields);
  assert.deepEqual(encodeHeaderBlock([]), new Uint8Array(0));
});

Deno.test("an upper-case name or a char above 0xff throws a RangeError", () => {
  assert.throws(() => encodeHeaderBlock([["Content-Type", "text/plain"]]), RangeError);
  assert.throws(() => encodeHeaderBlock([["x-\u0100", "a"]]), RangeError);
  assert.throws(() => encodeHeaderBlock([["x-euro", "\u20ac"]]), RangeError);
});
