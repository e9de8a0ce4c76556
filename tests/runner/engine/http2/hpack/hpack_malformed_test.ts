import assert from "node:assert/strict";
import { HpackDecoder, HpackError } from "../../../../../runner/engine/http2/hpack/mod.ts";
import { hex } from "./_hex.ts";

function assertHpackError(block: string, pattern: RegExp, decoder = new HpackDecoder()): void {
  assert.throws(() => decoder.decode(hex(block), () => {}), (error: unknown) => {
    assert.ok(error instanceof HpackError, `HpackError, got ${error}`);
    assert.match(error.message, pattern);
    return true;
  });
}

Deno.test("index 0 is malformed, indexed or as a name", () => {
  assertHpackError("80", /index 0/);
});

Deno.test("an index beyond the static and dynamic tables is malformed", () => {
  assertHpackError("be", /index 62/); // empty dynamic table
  assertHpackError("7e 01 61", /index 62/); // as the name of a literal with indexing
  assertHpackError("0f 2f 01 61", /index 62/); // as the name of a literal without indexing
  const decoder = new HpackDecoder();
  decoder.decode(hex("40 01 61 01 62"), () => {}); // one entry: index 62
  assertHpackError("bf", /index 63/, decoder);
});

Deno.test("an integer above 2^31 - 1 or with endless continuation octets overflows", () => {
  assertHpackError("ff ff ff ff ff 0f", /overflow/);
  assertHpackError("ff 80 80 80 80 80 80 80 80 00", /overflow/);
});

Deno.test("an integer running past the block's end is malformed", () => {
  assertHpackError("ff", /past the block/);
  assertHpackError("ff 80", /past the block/);
  assertHpackError("04 7f", /past the block/); // a string length
});

Deno.test("a string past the block's end, or missing, is malformed", () => {
  assertHpackError("00 03 61", /string runs past/);
  assertHpackError("04 05 2f", /string runs past/);
  assertHpackError("04", /string missing/);
  assertHpackError("40", /string missing/);
  assertHpackError("00 01 61", /string missing/);
});

Deno.test("Huffman padding longer than 7 bits is malformed", () => {
  // "a" is 00011; then 11 padding ones
  assertHpackError("04 82 1f ff", /padding/);
  assertHpackError("04 81 ff", /padding/); // 8 ones and no symbol
});

Deno.test("Huffman padding that is not all ones is malformed", () => {
  assertHpackError("04 81 18", /padding/); // 00011 000
  assertHpackError("04 81 1d", /padding/); // 00011 101
});

Deno.test("EOS inside a Huffman-coded string is malformed", () => {
  assertHpackError("04 84 ff ff ff ff", /EOS/); // 30 ones then 2 padding ones
  assertHpackError("04 85 1f ff ff ff ff", /EOS/); // "a", then EOS in full
});

Deno.test("a dynamic table size update above the limit is malformed", () => {
  const decoder = new HpackDecoder();
  decoder.decode(hex("3f e1 1f"), () => {}); // 4096 is allowed
  assertHpackError("3f e2 1f", /above 4096/, decoder); // 4097
  assertHpackError("3f e2 01", /above 256/, new HpackDecoder(256)); // 257
});

Deno.test("a dynamic table size update after a field is malformed", () => {
  assertHpackError("82 20", /after a field/);
});

Deno.test("random bytes only ever raise HpackError and always terminate", () => {
  let seed = 0x2545f491;
  const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 24;
  for (let round = 0; round < 20_000; round++) {
    const decoder = new HpackDecoder(round % 2 ? 4096 : 64);
    const block = Uint8Array.from({ length: 1 + (round % 40) }, next);
    try {
      decoder.decode(block, () => {});
    } catch (error) {
      assert.ok(error instanceof HpackError, `block ${block}: ${error}`);
    }
  }
});

Deno.test("status() takes exactly three digits as :status, else 0: a malformed response", () => {
  // A literal without indexing, name :status (static index 8), then the value's octets.
  const literal = (value: string) =>
    new Uint8Array([0x08, value.length, ...new TextEncoder().encode(value)]);
  assert.equal(new HpackDecoder().status(literal("204")), 204);
  for (const value of ["2e2", " 200", "0xc8", "+200", "200.0", "20", "2000", ""]) {
    assert.equal(new HpackDecoder().status(literal(value)), 0, JSON.stringify(value));
  }
});
