/**
 * Blocks from Python's `hpack` encoder (stateful: dynamic table, size updates, never-indexed
 * fields) decode to what it was given. Skipped when `python3` lacks `hpack`: never installed for
 * the test.
 */
import assert from "node:assert/strict";
import { HpackDecoder } from "../../../../../runner/engine/http2/hpack/mod.ts";
import { decodeFields, hex } from "./_hex.ts";

const SCRIPT = `
import json
from hpack import Encoder
from hpack.struct import NeverIndexedHeaderTuple
blocks = []
encoder = Encoder()
def emit(fields, huffman):
    block = encoder.encode(fields, huffman=huffman)
    blocks.append({"fields": [list(f) for f in fields], "hex": block.hex()})
for round in range(6):
    huffman = round % 2 == 0
    emit([(":status", "200"), ("server", "nginx/1.27.%d" % round),
          ("date", "Fri, 27 Nov 2026 11:0%d:00 GMT" % round),
          ("content-type", "text/html"), ("content-length", str(600 + round)),
          ("etag", '"6746c3a1-%x"' % round), ("x-custom-%d" % (round % 3), "v" * (40 * round)),
          NeverIndexedHeaderTuple("set-cookie", "s=%d" % round)], huffman)
    if round == 2:
        encoder.header_table_size = 256
    if round == 4:
        encoder.header_table_size = 0
        encoder.header_table_size = 4096
print(json.dumps(blocks))
`;

async function pythonBlocks(): Promise<{ fields: [string, string][]; hex: string }[] | null> {
  try {
    const { success, stdout } = await new Deno.Command("python3", {
      args: ["-c", SCRIPT],
      stdout: "piped",
      stderr: "null",
    }).output();
    return success ? JSON.parse(new TextDecoder().decode(stdout)) : null;
  } catch {
    return null; // no python3 at all
  }
}

const blocks = await pythonBlocks();

Deno.test({
  name: "blocks from Python's hpack encoder decode to the fields it was given",
  ignore: blocks === null,
  fn() {
    const decoder = new HpackDecoder();
    for (const block of blocks!) {
      assert.deepEqual(decodeFields(decoder, hex(block.hex)), block.fields);
    }
    assert.ok(decoder.tableLength > 0, "the encoder did use the dynamic table");
  },
});
