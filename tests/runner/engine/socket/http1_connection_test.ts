import assert from "node:assert/strict";
import { Http1Connection } from "../../../../runner/engine/socket/http1_connection.ts";
import { prepareRequest } from "../../../../runner/engine/http1/http1_request.ts";
import { PERFORMANCE_CLOCK, type PreparedRequest } from "../../../../runner/engine/types.ts";
import type { PlanBody } from "../../../../runner/plan/types.ts";
import { HELLO_BODY, startTarget } from "../../../../runner/target/mod.ts";
import { tcpServer } from "../../../_helpers/tcp_server.ts";
import { H2_CERT, h2cServer, h2TlsServer } from "../../../_helpers/http2_servers.ts";

const TLS_DIR = new URL("../../../testdata/tls/", import.meta.url);
const CERT = Deno.readTextFileSync(new URL("cert.pem", TLS_DIR));
const KEY = Deno.readTextFileSync(new URL("key.pem", TLS_DIR));
const encoder = new TextEncoder();

function request(url: string, method = "GET", body?: PlanBody): PreparedRequest {
  return prepareRequest({
    label: `${method} /`,
    method,
    url,
    headers: [],
    body,
    weight: 1,
    timeoutMs: 2_000,
    expect: { codes: [], classes: [2] },
  }, 0);
}

/** A connection closed when the test's scope ends. */
function connect(url: string, caCerts?: string[]): Http1Connection & Disposable {
  const tls = caCerts === undefined ? undefined : { caCerts };
  const connection = new Http1Connection({ url: new URL(url), clock: PERFORMANCE_CLOCK, tls });
  return Object.assign(connection, { [Symbol.dispose]: () => connection.close() });
}

/** Deno.serve on a free port, counting the distinct client connections it saw. */
function serve(
  handler: (request: Request) => Response | Promise<Response>,
  tls?: { cert: string; key: string },
) {
  const clientPorts = new Set<number>();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {}, ...tls }, (
    req,
    info,
  ) => {
    clientPorts.add(info.remoteAddr.port);
    return handler(req);
  });
  const scheme = tls === undefined ? "http" : "https";
  return Object.assign(server, {
    url: `${scheme}://${tls === undefined ? "127.0.0.1" : "localhost"}:${server.addr.port}/`,
    connections: () => clientPorts.size,
  });
}

/** Reads one request head (requests in these tests have no body); false at end of stream. */
async function readHead(conn: Deno.Conn): Promise<boolean> {
  const buffer = new Uint8Array(4096);
  let text = "";
  while (!text.includes("\r\n\r\n")) {
    const n = await conn.read(buffer);
    if (n === null) return false;
    text += new TextDecoder().decode(buffer.subarray(0, n));
  }
  return true;
}

const OK_RESPONSE = encoder.encode("HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok");

Deno.test("hello target: 200s on one kept-alive connection, timed and counted", async () => {
  await using target = await startTarget({ mode: "hello", port: 0 });
  using connection = connect(target.url);
  const get = request(target.url);
  for (let i = 0; i < 3; i++) {
    const before = performance.now();
    const pending = connection.send(get);
    assert.equal(connection.busy, true);
    const outcome = await pending;
    assert.equal(connection.busy, false);
    assert.deepEqual([outcome.status, outcome.error], [200, undefined]);
    assert.equal(outcome.bytesSent, get.bytes.length);
    assert.ok(outcome.bytesReceived > HELLO_BODY.length, `${outcome.bytesReceived} bytes`);
    assert.ok(before <= outcome.writtenAtMs && outcome.writtenAtMs <= outcome.completedAtMs);
  }
});

Deno.test("many requests reuse one connection: the server sees a single client", async () => {
  await using server = serve(() => new Response("hi"));
  using connection = connect(server.url);
  const get = request(server.url);
  for (let i = 0; i < 200; i++) assert.equal((await connection.send(get)).status, 200);
  assert.equal(server.connections(), 1);
  assert.equal(connection.socketsOpened, 1);
});

Deno.test("fixed target: the service time covers the server's delay", async () => {
  await using target = await startTarget({ mode: "fixed", port: 0, delayMs: 40 });
  using connection = connect(target.url);
  const outcome = await connection.send(request(target.url));
  assert.equal(outcome.status, 200);
  assert.ok(outcome.completedAtMs - outcome.writtenAtMs >= 39, "answered before the delay");
});

Deno.test("fault target: reset, garbage and close are errors, a 500 is a status", async () => {
  const cases = [["reset", "reset"], ["garbage", "protocol"], ["close", "reset"]] as const;
  for (const [fault, kind] of cases) {
    await using target = await startTarget({
      mode: "faults",
      port: 0,
      faultFrac: 1,
      faultKinds: [fault],
    });
    using connection = connect(target.url);
    for (let i = 0; i < 2; i++) { // the second send reconnects after the failure
      const outcome = await connection.send(request(target.url));
      assert.deepEqual([outcome.status, outcome.error], [0, kind], `${fault} #${i}`);
      assert.equal(connection.busy, false);
    }
  }
  await using target = await startTarget({
    mode: "faults",
    port: 0,
    faultFrac: 1,
    faultKinds: ["500"],
  });
  using connection = connect(target.url);
  const outcome = await connection.send(request(target.url));
  assert.deepEqual([outcome.status, outcome.error], [500, undefined]);
});

Deno.test("a chunked body streamed over time completes at its last chunk", async () => {
  const body = () =>
    new ReadableStream<Uint8Array>({
      async start(controller) {
        for (let i = 0; i < 5; i++) {
          controller.enqueue(encoder.encode(`part ${i} `.repeat(100)));
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
        controller.close();
      },
    });
  await using server = serve(() => new Response(body()));
  using connection = connect(server.url);
  for (let i = 0; i < 2; i++) {
    const outcome = await connection.send(request(server.url));
    assert.deepEqual([outcome.status, outcome.error], [200, undefined]);
    assert.ok(outcome.bytesReceived > 5 * 700, `${outcome.bytesReceived} bytes`);
    assert.ok(outcome.completedAtMs - outcome.writtenAtMs >= 45, "completed before the last chunk");
  }
  assert.equal(server.connections(), 1);
});

Deno.test("Connection: close from the server makes the next send reconnect", async () => {
  await using server = serve(() => new Response("bye", { headers: { connection: "close" } }));
  using connection = connect(server.url);
  for (let i = 0; i < 3; i++) {
    const outcome = await connection.send(request(server.url));
    assert.deepEqual([outcome.status, outcome.error], [200, undefined]);
  }
  assert.equal(server.connections(), 3);
  assert.equal(connection.socketsOpened, 3, "every reconnect is counted");
});

Deno.test("a request that opened its connection says how long the connect took", async () => {
  await using server = serve(() => new Response("bye", { headers: { connection: "close" } }));
  // Each reading 1 ms on from the last: a connect spans two readings, so it takes time.
  let reads = 0;
  const clock = { nowMs: () => performance.now() + reads++ };
  const connection = new Http1Connection({ url: new URL(server.url), clock });
  try {
    assert.equal(await connection.open(), undefined);
    const first = await connection.send(request(server.url));
    assert.equal(first.connectMs, 0, "opened before the request: not its connect");
    const calledAtMs = clock.nowMs();
    const second = await connection.send(request(server.url));
    assert.equal(second.status, 200);
    assert.ok(second.connectMs! > 0, `${second.connectMs}`);
    assert.ok(second.writtenAtMs - second.connectMs! >= calledAtMs, "the connect began at send");
  } finally {
    connection.close();
  }
});

Deno.test("a server closing an idle connection causes a reconnect, not an error", async () => {
  await using server = tcpServer(async (conn) => {
    if (await readHead(conn)) await conn.write(OK_RESPONSE); // then close while idle
  });
  using connection = connect(server.url);
  for (let i = 0; i < 3; i++) {
    const outcome = await connection.send(request(server.url));
    assert.deepEqual([outcome.status, outcome.error], [200, undefined], `request ${i}`);
    await new Promise((resolve) => setTimeout(resolve, 30)); // let the close arrive
  }
  assert.equal(server.accepted(), 3);
});

Deno.test("HEAD responses carry no body and keep the connection in step", async () => {
  await using server = serve(() => new Response("x".repeat(1000)));
  using connection = connect(server.url);
  for (const method of ["HEAD", "GET", "HEAD", "GET"]) {
    const outcome = await connection.send(request(server.url, method));
    assert.deepEqual([outcome.status, outcome.error], [200, undefined], method);
    assert.equal(outcome.bytesReceived > 1000, method === "GET", `${method} read the body`);
  }
  assert.equal(server.connections(), 1);
});

Deno.test("a large body is written whole and a large response read whole", async () => {
  const size = 16 * 1024 * 1024; // above the socket buffer: writes are partial
  await using server = serve(async (req) => {
    const length = (await req.arrayBuffer()).byteLength;
    return new Response(new Uint8Array(length));
  });
  using connection = connect(server.url);
  const post = request(server.url, "POST", { kind: "text", text: "y".repeat(size) });
  for (let i = 0; i < 2; i++) { // the first on a new connection, the second on a reused one
    const timer = setTimeout(() => connection.abort("timeout"), 5_000); // a lost write: fail
    const outcome = await connection.send(post);
    clearTimeout(timer);
    assert.deepEqual([outcome.status, outcome.error], [200, undefined]);
    assert.equal(outcome.bytesSent, post.bytes.length);
    assert.ok(outcome.bytesReceived > size, `${outcome.bytesReceived} bytes`);
  }
  assert.equal((await connection.send(request(server.url))).status, 200);
  assert.equal(server.connections(), 1);
});

Deno.test("a refused port is error refused, without a write", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const url = `http://127.0.0.1:${listener.addr.port}/`;
  listener.close();
  using connection = connect(url);
  const outcome = await connection.send(request(url));
  assert.deepEqual([outcome.status, outcome.error, outcome.bytesSent], [0, "refused", 0]);
  assert.equal(outcome.writtenAtMs, outcome.completedAtMs, "nothing written: no service time");
  assert.equal(connection.socketsOpened, 0, "a refused connect opened nothing");
});

Deno.test("https: a trusted certificate serves, an untrusted one is error tls", async () => {
  await using server = serve(() => new Response("secure"), { cert: CERT, key: KEY });
  using trusted = connect(server.url, [CERT]);
  for (let i = 0; i < 2; i++) {
    const outcome = await trusted.send(request(server.url));
    assert.deepEqual([outcome.status, outcome.error], [200, undefined]);
  }
  using untrusted = connect(server.url, []);
  const outcome = await untrusted.send(request(server.url));
  assert.deepEqual([outcome.status, outcome.error], [0, "tls"]);
});

Deno.test("https to a plain-HTTP server is error tls", async () => {
  await using server = serve(() => new Response("plain"));
  const url = server.url.replace("http:", "https:");
  using connection = connect(url, [CERT]);
  assert.equal((await connection.send(request(url))).error, "tls");
});

Deno.test("abort('timeout') resolves a slow request at once with error timeout", async () => {
  await using target = await startTarget({ mode: "fixed", port: 0, delayMs: 2_000 });
  using connection = connect(target.url);
  const pending = connection.send(request(target.url));
  await new Promise((resolve) => setTimeout(resolve, 50));
  const abortedAtMs = performance.now();
  connection.abort("timeout");
  assert.equal(connection.busy, false);
  const outcome = await pending;
  assert.deepEqual([outcome.status, outcome.error], [0, "timeout"]);
  assert.ok(outcome.completedAtMs - abortedAtMs < 20, "resolved late");
});

Deno.test("close() fails the request in flight; a send while busy is refused", async () => {
  await using target = await startTarget({ mode: "fixed", port: 0, delayMs: 2_000 });
  using connection = connect(target.url);
  const pending = connection.send(request(target.url));
  const second = await connection.send(request(target.url));
  assert.equal(second.error, "other");
  connection.close();
  assert.deepEqual([(await pending).error, connection.busy], ["other", false]);
});

Deno.test("a response head over the limit is a protocol error", async () => {
  await using server = tcpServer(async (conn) => {
    if (!(await readHead(conn))) return;
    await conn.write(encoder.encode(`HTTP/1.1 200 OK\r\nX-Big: ${"a".repeat(100_000)}\r\n`));
    await readHead(conn); // hold the socket open until the client gives up
  });
  using connection = connect(server.url);
  assert.equal((await connection.send(request(server.url))).error, "protocol");
});

Deno.test("a close in the middle of a body is error reset", async () => {
  await using server = tcpServer(async (conn) => {
    if (await readHead(conn)) {
      await conn.write(encoder.encode("HTTP/1.1 200 OK\r\ncontent-length: 10\r\n\r\nhalf"));
    }
  });
  using connection = connect(server.url);
  const outcome = await connection.send(request(server.url));
  assert.deepEqual([outcome.status, outcome.error], [0, "reset"]);
});

Deno.test("an h2c server's frames fail the request as protocol and are named, once per request", async () => {
  await using server = await h2cServer();
  let named = 0;
  const url = new URL(server.url);
  const connection = new Http1Connection({
    url,
    clock: PERFORMANCE_CLOCK,
    onHttp2Reply: () => named++,
  });
  try {
    for (let i = 1; i <= 2; i++) {
      const outcome = await connection.send(request(server.url));
      assert.deepEqual([outcome.status, outcome.error], [0, "protocol"]);
      assert.equal(named, i, "each such request is told apart from other protocol errors");
    }
  } finally {
    connection.close();
  }
  assert.equal(server.requests(), 0);
});

Deno.test("https offers ALPN http/1.1: a server offering only h2 refuses it (tls), never 403s", async () => {
  await using only = await h2TlsServer(false);
  using refused = connect(only.url, [H2_CERT]);
  // Offered no ALPN, node:http2 completed the handshake and answered 403 Missing ALPN Protocol.
  const outcome = await refused.send(request(only.url));
  assert.deepEqual([outcome.status, outcome.error], [0, "tls"]);
  await using both = await h2TlsServer(true);
  using served = connect(both.url, [H2_CERT]);
  assert.equal((await served.send(request(both.url))).status, 200);
  assert.equal(both.requests(), 1);
});
