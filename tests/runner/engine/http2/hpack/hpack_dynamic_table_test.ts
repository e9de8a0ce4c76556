import assert from "node:assert/strict";
import { HpackDecoder, HpackError } from "../../../../../runner/engine/http2/hpack/mod.ts";
import { decodeFields, hex } from "./_hex.ts";

/** A literal with incremental indexing, literal name `n<i>` and value `v<i>`, raw. */
function literal(i: number): number[] {
  const octets = (text: string) => [text.length, ...Array.from(text, (c) => c.charCodeAt(0))];
  return [0x40, ...octets(`n${i}`), ...octets(`v${i}`)];
}

Deno.test("a size update at the block's start evicts, down to an empty table", () => {
  const decoder = new HpackDecoder();
  decoder.decode(hex("40 01 61 01 62 40 01 63 01 64"), () => {});
  assert.equal(decoder.tableBytes, 68);
  assert.deepEqual(decodeFields(decoder, hex("3f 03 82")), [[":method", "GET"]]); // to 34
  assert.equal(decoder.tableLength, 1);
  assert.deepEqual(decodeFields(decoder, hex("be")), [["c", "d"]]);
  assert.deepEqual(decodeFields(decoder, hex("20 3f e1 1f")), []); // to 0, then back to 4096
  assert.equal(decoder.tableLength, 0);
  assert.throws(() => decoder.decode(hex("be"), () => {}), HpackError);
});

Deno.test("an entry larger than the table empties it instead of being added", () => {
  const decoder = new HpackDecoder(40);
  decoder.decode(hex("40 01 61 01 62"), () => {}); // 34 octets
  assert.equal(decoder.tableLength, 1);
  assert.deepEqual(decodeFields(decoder, hex("40 01 61 09 31 32 33 34 35 36 37 38 39")), [[
    "a",
    "123456789",
  ]]);
  assert.equal(decoder.tableLength, 0);
  assert.equal(decoder.tableBytes, 0);
});

Deno.test("the ring grows past its first slots, oldest entries kept in order", () => {
  const decoder = new HpackDecoder(65_536);
  decoder.decode(
    Uint8Array.from(Array.from({ length: 300 }, (_, i) => literal(i)).flat()),
    () => {},
  );
  assert.equal(decoder.tableLength, 300);
  // Index 62 is the newest (n299), 62 + 299 the oldest (n0); 361 = 0xff 0xea 0x01 (7-bit prefix).
  assert.deepEqual(decodeFields(decoder, hex("be ff ea 01")), [["n299", "v299"], ["n0", "v0"]]);
  assert.throws(() => decoder.decode(hex("ff eb 01"), () => {}), HpackError);
});

Deno.test("a full table of minimum-size entries evicts one entry per insertion", () => {
  const decoder = new HpackDecoder(32 * 4);
  // Empty name and value: 32 octets each, so 4 fit in 128.
  decoder.decode(hex("4000 00 4000 00 4000 00 4000 00 4000 00 4001 6101 62"), () => {});
  assert.equal(decoder.tableLength, 3);
  assert.equal(decoder.tableBytes, 2 * 32 + 34);
  assert.deepEqual(decodeFields(decoder, hex("be c0")), [["a", "b"], ["", ""]]);
});
