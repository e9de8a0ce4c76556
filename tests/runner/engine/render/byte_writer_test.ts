import assert from "node:assert/strict";
import { ByteWriter } from "../../../../runner/engine/render/byte_writer.ts";
import { uuidAt, uuidWords } from "../../../../runner/schedule/draw_values.ts";

const text = (w: ByteWriter) => new TextDecoder().decode(w.view());

Deno.test("ByteWriter writes decimal integers exactly, to 2^53", () => {
  const w = new ByteWriter(1);
  for (const n of [0, 7, 10, 99, 100, -1, -450, 2 ** 53 - 1, 1_000_000_007]) {
    w.reset();
    w.integer(n);
    assert.equal(text(w), String(n));
  }
});

Deno.test("ByteWriter writes a UUID's words as the same text as uuidAt()", () => {
  const w = new ByteWriter(4);
  const words = new Uint32Array(4);
  for (let n = 0; n < 1000; n++) {
    w.reset();
    w.uuid(uuidWords(3, 1, n, words));
    assert.equal(text(w), uuidAt(3, 1, n));
  }
});

Deno.test("ByteWriter grows past its capacity and keeps what it held", () => {
  const w = new ByteWriter(2);
  w.ascii("ab");
  w.utf8("é€");
  w.range(new TextEncoder().encode("x".repeat(100)), 10, 90);
  assert.equal(text(w), "abé€" + "x".repeat(80));
});
