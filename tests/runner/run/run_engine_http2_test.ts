/**
 * HTTP/2 runs end to end (`load.http: 2`): runEngine against in-process node:http2 servers (h2c
 * and h2 over TLS). The plan reader does not know `load.http` yet on this branch, so each plan is
 * parsed as HTTP/1.1 and its `load` patched.
 */
import assert from "node:assert/strict";
import http2 from "node:http2";
import { type EngineRun, runEngine } from "../../../runner/run/run_engine.ts";
import { runWorkers } from "../../../runner/run/run_workers.ts";
import { openLibcNet } from "../../../runner/engine/native/libc_net.ts";
import { openLibSsl } from "../../../runner/engine/native/libssl_tls.ts";
import type { RequestCounts } from "../../../runner/model/run_result.ts";
import { parseText } from "../../_helpers/plan_fixtures.ts";
import { H2_CERT } from "../../_helpers/http2_servers.ts";
import { behaviourServer } from "../../_helpers/h2_behaviour_server.ts";
import { forwardingProxy } from "../../_helpers/tcp_proxy.ts";

/** The I/O paths HTTP/2 runs on here: the native path's sockets (the default) and Deno's. */
const IO_PATHS: readonly ("native" | "deno")[] = openLibcNet() ? ["native", "deno"] : ["deno"];
/** Whether h2 (TLS) can run on the native path here: OpenSSL 3 opens. */
const NATIVE_TLS = openLibcNet() !== undefined && openLibSsl() !== undefined;

interface H2Load {
  rate: string;
  duration: string;
  connections: number;
  maxConnections?: number;
  maxStreams?: number;
  warmup?: boolean;
  timeout?: string;
  windowMib?: number;
  /** The I/O path: Deno's sockets here (default), or the native path in an engine worker. */
  io?: "native" | "deno";
  /** Certificates trusted (default: the test certificate). */
  trust?: string[];
}

async function h2Run(url: string, load: H2Load, notices: string[] = []): Promise<EngineRun> {
  const warmup = load.warmup ? `    - { rate: ${load.rate}, duration: 500ms, warmup: true }\n` : "";
  const { plan, issues } = parseText(`name: h2
target: ${url}
requests: [{ path: /, timeout: ${load.timeout ?? "5s"} }]
load:
  connections: ${load.connections}
  max_connections: ${load.maxConnections ?? load.connections}
  stages:
${warmup}    - { rate: ${load.rate}, duration: ${load.duration} }
`);
  assert.ok(plan, JSON.stringify(issues));
  plan.load.http = "2";
  if (load.maxStreams !== undefined) plan.load.maxStreams = load.maxStreams;
  if (load.windowMib !== undefined) plan.load.windowMib = load.windowMib;
  const caCerts = load.trust ?? [H2_CERT];
  const options = { plan, caCerts, onNotice: (n: string) => notices.push(n) };
  if (load.io === "native") {
    const run = await runWorkers({ ...options, io: "native" });
    assert.equal(run.io, "native");
    return run;
  }
  return await runEngine({ ...options, io: "deno" });
}

Deno.test({
  name: "on the native path, an untrusted certificate and a server refusing h2 fail as tls",
  ignore: !NATIVE_TLS,
}, async () => {
  // No certificate trusted besides the system's: the test certificate is not.
  await using server = await behaviourServer((s) => s.answer(), { tls: true });
  const untrusted = await h2Run(server.url, {
    io: "native",
    rate: "50/s",
    duration: "200ms",
    connections: 1,
    trust: [],
  });
  assert.deepEqual(addsUp(untrusted).errors, { tls: 10 });
  assert.equal(server.streams(), 0);
  // A TLS server that agrees on http/1.1 only: no silent fallback.
  const listener = Deno.listenTls({
    hostname: "127.0.0.1",
    port: 0,
    cert: H2_CERT,
    key: Deno.readTextFileSync(new URL("../../testdata/tls/key.pem", import.meta.url)),
    alpnProtocols: ["http/1.1"],
  });
  const accepted: Deno.Conn[] = [];
  void (async () => {
    for await (const conn of listener) {
      accepted.push(conn);
      (conn as Deno.TlsConn).handshake().catch(() => {});
    }
  })();
  try {
    const http1 = await h2Run(`https://127.0.0.1:${listener.addr.port}/`, {
      io: "native",
      rate: "50/s",
      duration: "200ms",
      connections: 1,
    });
    assert.deepEqual(addsUp(http1).errors, { tls: 10 });
  } finally {
    listener.close();
    for (const conn of accepted) conn.close();
  }
});

Deno.test("load.window_mib is the window offered each stream, and the record says so", async () => {
  await using server = await behaviourServer((s) => s.answer(200, "x".repeat(100_000)));
  const run = await h2Run(server.url, {
    rate: "50/s",
    duration: "200ms",
    connections: 1,
    windowMib: 64,
  });
  assert.equal(addsUp(run).ok, 10);
  assert.equal(server.clientWindowBytes(), 64 * 1024 * 1024);
  assert.equal(run.http2?.windowBytes, 64 * 1024 * 1024);
});

/** The measured stage's counts, checked to add up: scheduled = completed = ok + every error. */
function addsUp(run: EngineRun): RequestCounts {
  const stage = run.recorded.stages.at(-1)!;
  const c = stage.counts;
  const errors = Object.values(c.errors).reduce((a, b) => a + (b ?? 0), 0);
  assert.equal(c.completed, c.scheduled, "every scheduled request has an outcome");
  assert.equal(c.ok + errors, c.completed, JSON.stringify(c));
  return c;
}

const WAYS = [false, true].flatMap((t) => IO_PATHS.map((io) => [t, io] as const));
for (const [tls, io] of WAYS.filter(([t, io]) => !t || io === "deno" || NATIVE_TLS)) {
  Deno.test(`an HTTP/2 run over ${tls ? "TLS (ALPN h2)" : "h2c"} completes every request and counts its bytes (${io} I/O)`, async () => {
    await using server = await behaviourServer((s) => s.answer(200, "hello"), { tls });
    const run = await h2Run(server.url, { io, rate: "100/s", duration: "1s", connections: 2 });
    assert.equal(run.io, io);
    const c = addsUp(run);
    assert.equal(c.scheduled, 100);
    assert.equal(c.ok, 100);
    assert.deepEqual(c.statusCodes, { "200": 100 });
    assert.equal(server.streams(), 100);
    // DATA bytes ("hello") and the response header list, per request.
    assert.ok(c.bytesReceived >= 100 * 5 && c.bytesReceived < 100 * 200, String(c.bytesReceived));
    assert.ok(c.bytesSent >= 100 * 20, String(c.bytesSent));
    assert.equal(c.sent, 100);
    assert.equal(server.sessions(), 2, "one session per connection, none reopened");
    assert.equal(run.connections.peak, 2);
    assert.equal(run.connections.opened, 2);
    // node:http2 sets no stream limit of its own: the default cap. The window offered: 16 MiB.
    assert.deepEqual(run.http2, { streamsPerConnection: 100, windowBytes: 16 * 1024 * 1024 });
    assert.equal(server.clientWindowBytes(), 16 * 1024 * 1024);
  });
}

Deno.test("a 200 ms stall shows in the corrected tail, and is hidden from service time", async () => {
  // Every answer to a stream arriving in [1000, 1200) ms is held until 1200 ms.
  await using server = await behaviourServer((s) =>
    s.answer(200, "ok", s.atMs >= 1000 && s.atMs < 1200 ? 1200 - s.atMs : 0)
  );
  // One stream on each of 2 connections: the stalled requests wait for a stream, counted.
  const run = await h2Run(server.url, {
    rate: "200/s",
    duration: "3s",
    connections: 2,
    maxStreams: 1,
  });
  const stage = run.recorded.stages[0];
  assert.equal(addsUp(run).ok, 600);
  // About 40 of 600 requests (6.7%) fell due in the stall and waited 0-200 ms for its end.
  const p99Ms = stage.response.percentilesUs["99"] / 1000;
  const maxMs = stage.response.maxUs / 1000;
  assert.ok(p99Ms > 120 && p99Ms < 215, `corrected p99 ${p99Ms} ms`);
  assert.ok(maxMs > 180 && maxMs < 230, `corrected max ${maxMs} ms`);
  assert.ok(stage.service.percentilesUs["99"] / 1000 < 50, "service time hides the stall");
});

for (const io of IO_PATHS) {
  Deno.test(`RST_STREAM and REFUSED_STREAM are errors of their own kinds, never retried (${io} I/O)`, async () => {
    await using server = await behaviourServer((s) =>
      s.n % 5 === 1
        ? s.reset(http2.constants.NGHTTP2_INTERNAL_ERROR)
        : s.n % 5 === 3
        ? s.reset(http2.constants.NGHTTP2_REFUSED_STREAM)
        : s.answer()
    );
    const run = await h2Run(server.url, {
      io,
      rate: "100/s",
      duration: "1s",
      connections: 1,
    });
    const c = addsUp(run);
    assert.deepEqual(c.errors, { rst_stream: 20, refused_stream: 20 });
    assert.equal(c.ok, 60);
    assert.equal(server.streams(), 100, "nothing was sent twice");
  });
}

for (const io of IO_PATHS) {
  Deno.test(`a GOAWAY mid-run fails the streams the server did not take as goaway, then reconnects (${io} I/O)`, async () => {
    // Answers take 30 ms, so streams are in flight; stream 50 draws a GOAWAY naming the stream
    // before it as the last processed, and is never answered.
    await using server = await behaviourServer((s) => {
      if (s.n === 50) s.goaway(http2.constants.NGHTTP2_NO_ERROR);
      else s.answer(200, "ok", 30);
    });
    const run = await h2Run(server.url, {
      io,
      rate: "200/s",
      duration: "1s",
      connections: 1,
    });
    const c = addsUp(run);
    const goaway = c.errors.goaway ?? 0;
    assert.ok(goaway >= 1, JSON.stringify(c.errors));
    assert.deepEqual(Object.keys(c.errors), ["goaway"]);
    assert.equal(c.ok + goaway, 200);
    // Each request reached the server once at most: a re-send would make more streams than
    // requests. (Streams sent before the client saw the GOAWAY may never reach the application.)
    assert.ok(server.streams() <= 200, `no request was re-sent: ${server.streams()} streams`);
    assert.ok(c.ok <= server.streams() - 1, "every answer was to a stream the server saw");
    assert.equal(server.sessions(), 2, "the next request opened a new connection");
  });
}

for (const io of IO_PATHS) {
  Deno.test(`a server allowing 1 stream per connection gets 1, and the wait for it is counted (${io} I/O)`, async () => {
    await using server = await behaviourServer((s) => s.answer(200, "ok", 20), {
      maxConcurrentStreams: 1,
    });
    const notices: string[] = [];
    // 2 connections × 1 stream at 20 ms carry 100/s; 150/s must wait for a stream.
    const run = await h2Run(server.url, {
      io,
      rate: "150/s",
      duration: "1s",
      connections: 2,
      maxStreams: 8,
    }, notices);
    const c = addsUp(run);
    assert.equal(c.ok, 150);
    assert.equal(server.peakStreams(), 1, "never more streams than the server allows");
    assert.deepEqual(run.http2, {
      streamsPerConnection: 1,
      serverMaxStreams: 1,
      windowBytes: 16 * 1024 * 1024,
    });
    assert.match(notices.join("\n"), /load\.max_streams is 8, but .* allows 1 concurrent streams/);
    const wait = run.recorded.queueWait;
    assert.ok(wait.count > 0 && wait.maxUs > 10_000, `queue wait ${JSON.stringify(wait)}`);
  });
}

Deno.test("runWorkers() runs h2c on the native path where it can, and on Deno's sockets when asked", async () => {
  await using server = await behaviourServer((s) => s.answer());
  const { plan } = parseText(`name: h2
target: ${server.url}
requests: [{ path: / }]
load: { connections: 2, stages: [{ rate: 50/s, duration: 400ms }] }
`);
  assert.ok(plan);
  plan.load.http = "2";
  for (const io of IO_PATHS) {
    const run = await runWorkers({ plan, io });
    assert.equal(run.io, io);
    assert.equal(addsUp(run).ok, 20, io);
    assert.equal(run.http2?.streamsPerConnection, 100, io);
  }
});

for (const io of IO_PATHS) {
  Deno.test(`a stream past its timeout fails as timeout, reset alone: the connection carries on (${io} I/O)`, async () => {
    // Every 10th stream is never answered; the rest are answered at once.
    await using server = await behaviourServer((s) => {
      if (s.n % 10 !== 0) s.answer();
    });
    const run = await h2Run(server.url, {
      io,
      rate: "100/s",
      duration: "1s",
      connections: 1,
      timeout: "200ms",
    });
    const c = addsUp(run);
    assert.deepEqual(c.errors, { timeout: 10 });
    assert.equal(c.ok, 90);
    assert.equal(server.sessions(), 1, "a timed-out stream does not cost its connection");
  });
}

for (const io of IO_PATHS) {
  Deno.test(`a connection dropped under its streams fails them as reset, and the next opens another (${io} I/O)`, async () => {
    // A TCP proxy in front of the server drops every connection when stream 30 arrives (no GOAWAY:
    // the socket just closes); answers take 30 ms, so streams are in flight then.
    const proxy: { tcp?: { drop(): void } } = {};
    await using server = await behaviourServer((s) => {
      if (s.n === 30) proxy.tcp!.drop();
      else s.answer(200, "ok", 30);
    });
    await using tcp = forwardingProxy(new URL(server.url));
    proxy.tcp = tcp;
    const run = await h2Run(tcp.url, {
      io,
      rate: "200/s",
      duration: "1s",
      connections: 1,
    });
    const c = addsUp(run);
    const reset = c.errors.reset ?? 0;
    assert.ok(reset >= 1, JSON.stringify(c.errors));
    assert.deepEqual(Object.keys(c.errors), ["reset"]);
    assert.equal(c.ok + reset, 200);
    assert.equal(server.sessions(), 2, "the next request opened a new connection");
  });
}

Deno.test("templated requests are read back per send: each stream carries its own values", async () => {
  const seen: string[] = [];
  await using server = await behaviourServer((s) => {
    seen.push(`${s.headers[":method"]} ${s.headers[":path"]} ${s.headers["x-n"]} ${s.body}`);
    s.answer();
  });
  const { plan, issues } = parseText(`name: h2
target: ${server.url}
vars: { n: counter }
requests:
  - { name: get, path: "/items/{{n}}", headers: { X-N: "{{n}}" } }
  - { name: post, method: POST, path: /orders, body: { json: { n: "{{n}}" } } }
load: { connections: 1, stages: [{ rate: 100/s, duration: 400ms }] }
`);
  assert.ok(plan, JSON.stringify(issues));
  plan.load.http = "2";
  const run = await runEngine({ plan, io: "deno" });
  assert.equal(addsUp(run).ok, 40);
  const gets = seen.filter((line) => line.startsWith("GET"));
  const posts = seen.filter((line) => line.startsWith("POST"));
  assert.ok(gets.length > 0 && posts.length > 0, seen.join("\n"));
  for (const line of gets) assert.match(line, /^GET \/items\/(\d+) \1 $/);
  for (const line of posts) assert.match(line, /^POST \/orders undefined \{"n":\d+\}$/);
  assert.equal(new Set(seen).size, 40, "no two requests alike: values drawn per request");
});

for (const [tls, io] of WAYS.filter(([t, io]) => !t || io === "deno" || NATIVE_TLS)) {
  Deno.test(`an HTTP/2 run keeps the first body of an unexpected status, its first 512 bytes (${tls ? "h2" : "h2c"}, ${io} I/O)`, async () => {
    // Every other stream answered 401 with 600 bytes, in DATA frames node:http2 may split.
    const denied = "denied: " + "0123456789".repeat(60);
    await using server = await behaviourServer(
      (s) => s.n % 2 ? s.answer(200, "hello") : s.answer(401, denied),
      { tls },
    );
    const run = await h2Run(server.url, { io, rate: "100/s", duration: "500ms", connections: 2 });
    const c = addsUp(run);
    assert.deepEqual(c.statusCodes, { "200": 25, "401": 25 });
    assert.deepEqual(
      (run.bodySamples ?? []).map((s) => [
        s.labelIndex,
        s.status,
        new TextDecoder().decode(s.bytes),
        s.bodyBytes,
      ]),
      [[0, 401, denied.slice(0, 512), 608]],
    );
  });
}
