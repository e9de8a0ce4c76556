import assert from "node:assert/strict";
import { encodeHeaderBlock, HpackDecoder } from "../../../../../runner/engine/http2/hpack/mod.ts";

Deno.test("status() keeps the retry-after of a 429 or 503, whatever way it is coded", () => {
  const decoder = new HpackDecoder();
  for (const status of ["429", "503"]) {
    const block = encodeHeaderBlock([[":status", status], ["date", "x"], ["retry-after", "120"]]);
    assert.equal(decoder.status(block), Number(status));
    assert.equal(decoder.retryAfter, "120");
  }
  // Added to the table (incremental indexing: 0x40 | 53, "7"), then read back by its index 62.
  const added = Uint8Array.of(0x08, 0x03, 0x34, 0x32, 0x39, 0x75, 0x01, 0x37);
  assert.equal(decoder.status(added), 429);
  assert.equal(decoder.retryAfter, "7");
  const indexed = Uint8Array.of(0x08, 0x03, 0x35, 0x30, 0x33, 0xbe);
  assert.equal(decoder.status(indexed), 503);
  assert.equal(decoder.retryAfter, "7");
});

Deno.test("status() reads no retry-after for other statuses, and forgets the last block's", () => {
  const decoder = new HpackDecoder();
  decoder.status(encodeHeaderBlock([[":status", "429"], ["retry-after", "5"]]));
  assert.equal(decoder.retryAfter, "5");
  assert.equal(decoder.status(encodeHeaderBlock([[":status", "200"], ["retry-after", "5"]])), 200);
  assert.equal(decoder.retryAfter, "");
  assert.equal(decoder.status(encodeHeaderBlock([[":status", "503"]])), 503);
  assert.equal(decoder.retryAfter, "");
});
