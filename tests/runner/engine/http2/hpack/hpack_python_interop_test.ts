/**
 * HPACK against Python's `hpack` (PyPI, the HTTP/2 stack of hyper-h2): blocks from its encoder
 * (stateful: dynamic table, size updates, never-indexed fields) decode to what it was given, and
 * the request blocks tailgate sends decode in its decoder to the request's fields. Ignored where
 * `python3` lacks `hpack`, unless TAILGATE_REQUIRE_TOOLS=1 (CI: .ci/install-tools installs it).
 */
import assert from "node:assert/strict";
import { HpackDecoder } from "../../../../../runner/engine/http2/hpack/mod.ts";
import { H2RequestEncoder } from "../../../../../runner/engine/http2/mod.ts";
import { decodeFields, hex } from "./_hex.ts";

const REQUIRED = Deno.env.get("TAILGATE_REQUIRE_TOOLS") === "1";

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

/** What `script` prints as JSON, given `input` as JSON; null without python3 or its hpack. */
async function python<T>(script: string, input: unknown = null): Promise<T | null> {
  try {
    const child = new Deno.Command("python3", {
      args: ["-c", script],
      stdin: "piped",
      stdout: "piped",
      stderr: "null",
    }).spawn();
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(JSON.stringify(input)));
    await writer.close();
    const { success, stdout } = await child.output();
    return success ? JSON.parse(new TextDecoder().decode(stdout)) : null;
  } catch {
    return null; // no python3 at all
  }
}

const blocks = await python<{ fields: [string, string][]; hex: string }[]>(SCRIPT);
const hasHpack = blocks !== null;
if (!hasHpack && !REQUIRED) {
  console.error(
    "note: python3's hpack is not installed; its tests are ignored (.ci/install-tools)",
  );
}

Deno.test({
  name: "blocks from Python's hpack encoder decode to the fields it was given",
  ignore: !hasHpack && !REQUIRED,
  fn() {
    assert.ok(blocks, "python3 with hpack (pip install hpack==4.2.0)");
    const decoder = new HpackDecoder();
    for (const block of blocks) {
      assert.deepEqual(decodeFields(decoder, hex(block.hex)), block.fields);
    }
    assert.ok(decoder.tableLength > 0, "the encoder did use the dynamic table");
  },
});

// Each block decoded alone, header octets as latin1 (a UTF-8 value goes out as its octets).
const DECODE = `
import json, sys
from hpack import Decoder
print(json.dumps([[[n.decode("latin-1"), v.decode("latin-1")] for n, v in
                   Decoder().decode(bytes.fromhex(h), raw=True)] for h in json.load(sys.stdin)]))
`;

Deno.test({
  name: "the request blocks tailgate sends decode in Python's hpack to the request's fields",
  ignore: !hasHpack && !REQUIRED,
  async fn() {
    const latin1 = (text: string) => Uint8Array.from(text, (c) => c.charCodeAt(0));
    const utf8 = String.fromCharCode(...new TextEncoder().encode("voilà ☕"));
    const requests = [
      "GET / HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nAccept-Encoding: gzip, deflate\r\n\r\n",
      "POST /orders/8f3a2c1e?user=12345 HTTP/1.1\r\nHost: api.example\r\nContent-Type: " +
      `application/json\r\nX-Request-Id: ${"7f".repeat(80)}\r\nX-Name: ${utf8}\r\n` +
      "Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.abc.def\r\nContent-Length: 2\r\n\r\n{}",
    ];
    const encoder = new H2RequestEncoder("https");
    const hexBlocks = requests.map((r) =>
      Array.from(encoder.encode(latin1(r)).block, (b) => b.toString(16).padStart(2, "0")).join("")
    );
    const decoded = await python<[string, string][][]>(DECODE, hexBlocks);
    assert.ok(decoded, "python3 with hpack (pip install hpack==4.2.0)");
    assert.deepEqual(decoded[0], [
      [":method", "GET"],
      [":scheme", "https"],
      [":authority", "127.0.0.1:8080"],
      [":path", "/"],
      ["accept-encoding", "gzip, deflate"],
    ]);
    assert.deepEqual(decoded[1], [
      [":method", "POST"],
      [":scheme", "https"],
      [":authority", "api.example"],
      [":path", "/orders/8f3a2c1e?user=12345"],
      ["content-type", "application/json"],
      ["x-request-id", "7f".repeat(80)],
      ["x-name", utf8],
      ["authorization", "Bearer eyJhbGciOiJIUzI1NiJ9.abc.def"],
      ["content-length", "2"],
    ]);
  },
});
