import assert from "node:assert/strict";
import {
  GARBAGE_BYTES,
  listenRawHttp1,
  type RawReply,
} from "../../../runner/target/raw_http1_server.ts";
import { sleep } from "./_timed_fetch.ts";

const OK: RawReply = { kind: "response", status: 200, headers: {}, body: "ok\n" };

/** Starts a raw server answering with `reply`, counting the requests it handles. */
async function rawServer(reply: (count: number) => RawReply | Promise<RawReply>) {
  let count = 0;
  const server = await listenRawHttp1({
    hostname: "127.0.0.1",
    port: 0,
    handle: async () => await reply(++count),
  });
  return { port: server.port, handled: () => count, [Symbol.asyncDispose]: () => server.close() };
}

/** Writes `parts` (pausing between them) and reads until the server closes or resets. */
async function exchange(port: number, ...parts: string[]) {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  const deadline = setTimeout(() => conn.close(), 2_000);
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  let reset = false;
  try {
    for (const [i, part] of parts.entries()) {
      if (i > 0) await sleep(20);
      await conn.write(new TextEncoder().encode(part));
    }
    const buffer = new Uint8Array(4096);
    for (let n = await conn.read(buffer); n !== null; n = await conn.read(buffer)) {
      chunks.push(buffer.slice(0, n));
    }
  } catch (error) {
    if (!(error instanceof Deno.errors.ConnectionReset)) throw error;
    reset = true;
  } finally {
    clearTimeout(deadline);
    conn.close();
  }
  const bytes = new Uint8Array(await new Blob(chunks).arrayBuffer());
  return { bytes, text: new TextDecoder().decode(bytes), reset };
}

const GET = "GET / HTTP/1.1\r\nHost: t\r\n\r\n";
const GET_CLOSE = "GET /last HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n";

Deno.test("raw server answers pipelined keep-alive requests in order, bodies skipped", async () => {
  await using server = await rawServer((n) => ({ ...OK, body: `answer ${n}\n` }));
  const post = "POST /x HTTP/1.1\r\nHost: t\r\nContent-Length: 5\r\n\r\nhello";
  const { text, reset } = await exchange(server.port, post + GET + GET_CLOSE);
  assert.equal(reset, false);
  const answers = text.match(/answer \d/g);
  assert.deepEqual(answers, ["answer 1", "answer 2", "answer 3"]);
  assert.equal(text.match(/HTTP\/1\.1 200 OK/g)?.length, 3);
  assert.equal(text.match(/connection: close/g)?.length, 1, "only the last response closes");
  assert.equal(server.handled(), 3);
});

Deno.test("raw server answers a request that arrives in pieces once it is complete", async () => {
  await using server = await rawServer(() => OK);
  const { text } = await exchange(
    server.port,
    "GET / HTTP/1.1\r\nHo",
    "st: t\r\nConnection: close\r\n\r\n",
  );
  assert.match(text, /^HTTP\/1\.1 200 OK\r\n/);
  assert.equal(server.handled(), 1);
});

Deno.test("raw server closes an HTTP/1.0 connection after its answer", async () => {
  await using server = await rawServer(() => OK);
  const { text } = await exchange(server.port, "GET / HTTP/1.0\r\n\r\n");
  assert.match(text, /^HTTP\/1\.1 200 OK\r\n[^]*connection: close\r\n\r\nok\n$/);
});

Deno.test("raw server still answers a client that half-closed after its request", async () => {
  await using server = await rawServer(async () => {
    await sleep(30);
    return OK;
  });
  const conn = await Deno.connect({ hostname: "127.0.0.1", port: server.port });
  await conn.write(new TextEncoder().encode(GET));
  await conn.closeWrite();
  const text = await new Response(conn.readable).text();
  assert.match(text, /^HTTP\/1\.1 200 OK\r\n[^]*\r\n\r\nok\n$/);
});

Deno.test("raw server answers a malformed request 400 and closes", async () => {
  await using server = await rawServer(() => OK);
  const { text } = await exchange(server.port, "this is not http\r\n\r\n");
  assert.match(text, /^HTTP\/1\.1 400 Bad Request\r\n/);
  assert.equal(server.handled(), 0);
});

Deno.test("raw server reset reply aborts the connection with a TCP reset", async () => {
  await using server = await rawServer(() => ({ kind: "reset" }));
  const { bytes, reset } = await exchange(server.port, GET);
  assert.equal(reset, true);
  assert.equal(bytes.length, 0);
});

Deno.test("raw server close reply ends the connection cleanly without a byte", async () => {
  await using server = await rawServer(() => ({ kind: "close" }));
  const { bytes, reset } = await exchange(server.port, GET);
  assert.equal(reset, false);
  assert.equal(bytes.length, 0);
});

Deno.test("raw server garbage reply writes bytes that are not HTTP, then closes", async () => {
  await using server = await rawServer(() => ({ kind: "garbage" }));
  const { bytes, reset } = await exchange(server.port, GET);
  assert.equal(reset, false);
  assert.deepEqual(bytes, GARBAGE_BYTES);
});
