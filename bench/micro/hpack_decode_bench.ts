/**
 * Cost of decoding one typical nginx response header block with {@linkcode HpackDecoder}: every
 * field a literal without indexing on a static name (as nginx sends them), strings Huffman-coded
 * or raw, and with {@linkcode HpackDecoder.status} (the status alone, as the engine reads every
 * response). Run with `deno bench bench/micro/hpack_decode_bench.ts`.
 *
 * @module
 */
import {
  encodeHeaderBlock,
  encodeInteger,
  HpackDecoder,
  staticFieldIndex,
  staticNameIndex,
} from "../../runner/engine/http2/hpack/mod.ts";

const NGINX_RESPONSE: [string, string][] = [
  [":status", "200"],
  ["server", "nginx/1.27.3"],
  ["date", "Fri, 27 Nov 2026 11:04:31 GMT"],
  ["content-type", "text/html"],
  ["content-length", "615"],
  ["last-modified", "Tue, 26 Nov 2024 15:55:00 GMT"],
  ["etag", '"6745ef54-267"'],
  ["accept-ranges", "bytes"],
];

/** The same fields with every string raw: what encodeHeaderBlock does when Huffman is longer. */
function rawBlock(fields: [string, string][]): Uint8Array {
  const into = new Uint8Array(1024);
  let at = 0;
  for (const [name, value] of fields) {
    const index = staticFieldIndex(name, value);
    if (index !== 0) {
      at = encodeInteger(index, 7, 0x80, into, at);
      continue;
    }
    at = encodeInteger(staticNameIndex(name), 4, 0x00, into, at);
    at = encodeInteger(value.length, 7, 0x00, into, at);
    for (let i = 0; i < value.length; i++) into[at++] = value.charCodeAt(i);
  }
  return into.slice(0, at);
}

const huffmanBlock = encodeHeaderBlock(NGINX_RESPONSE);
const raw = rawBlock(NGINX_RESPONSE);
const decoder = new HpackDecoder();
let sink = 0;
const onField = (name: string, value: string) => {
  sink += name.length + value.length;
};

Deno.bench(`nginx response block, Huffman (${huffmanBlock.length} octets)`, () => {
  decoder.decode(huffmanBlock, onField);
});
Deno.bench(`nginx response block, raw (${raw.length} octets)`, () => {
  decoder.decode(raw, onField);
});
Deno.bench(`status() of the Huffman block (the engine's hot path)`, () => {
  sink += decoder.status(huffmanBlock);
});
globalThis.addEventListener("unload", () => {
  if (sink === 0) console.log("nothing decoded");
});
