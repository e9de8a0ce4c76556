import assert from "node:assert/strict";
import {
  PROBE_MIN_WAIT_MS,
  probeCleartextHttp2,
  probeHead,
} from "../../../runner/engine/http2_preflight.ts";
import { NGINX_H2C_REPLY } from "../../_helpers/http2_servers.ts";
import { tcpServer } from "../../_helpers/tcp_server.ts";

/** The HTTP/2 client preface's length: nginx reads this much before it judges the bytes. */
const PREFACE_BYTES = 24;

/** Reads until `n` bytes came or the peer closed; returns what came. */
async function readAtLeast(conn: Deno.Conn, n: number): Promise<string> {
  const buffer = new Uint8Array(4096);
  let text = "";
  while (text.length < n) {
    const got = await conn.read(buffer.subarray(text.length));
    if (got === null) break;
    text += new TextDecoder().decode(buffer.subarray(text.length, text.length + got));
  }
  return text;
}

Deno.test("the probe names an nginx-like h2c port that answers only once 24 bytes came", async () => {
  let received = "";
  await using server = tcpServer(async (conn) => {
    received = await readAtLeast(conn, PREFACE_BYTES);
    await conn.write(NGINX_H2C_REPLY);
  });
  const url = new URL(server.url);
  const problem = await probeCleartextHttp2(url);
  assert.match(
    problem ?? "",
    /speaks only HTTP\/2 \(it answered an HTTP\/1\.1 request with an HTTP\/2 SETTINGS frame\)/,
  );
  assert.ok(received.startsWith("HEAD / HTTP/1.1\r\n"), received);
});

Deno.test("the probe never finishes its head, and takes an HTTP/1 server's silence as no HTTP/2", async () => {
  let received = "";
  await using server = tcpServer(async (conn) => {
    const buffer = new Uint8Array(4096);
    for (let n = await conn.read(buffer); n !== null; n = await conn.read(buffer)) {
      received += new TextDecoder().decode(buffer.subarray(0, n)); // until the probe closes
    }
  });
  const url = new URL(server.url);
  const startedMs = performance.now();
  assert.equal(await probeCleartextHttp2(url), undefined);
  const tookMs = performance.now() - startedMs;
  assert.ok(tookMs >= PROBE_MIN_WAIT_MS - 1 && tookMs < 1000, `took ${tookMs} ms`);
  assert.equal(received, probeHead(url));
  assert.ok(received.length > PREFACE_BYTES && !received.includes("\r\n\r\n"), received);
});

Deno.test("the probe passes an HTTP/1 answer, a close and bytes that are not a frame", async () => {
  for (
    const answer of [
      "HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n",
      "",
      "\x00\x00\x00\x01\x00\x00\x00\x00\x01",
    ]
  ) {
    await using server = tcpServer(async (conn) => {
      await readAtLeast(conn, PREFACE_BYTES);
      if (answer !== "") await conn.write(new TextEncoder().encode(answer));
    });
    assert.equal(await probeCleartextHttp2(new URL(server.url)), undefined, JSON.stringify(answer));
  }
});
