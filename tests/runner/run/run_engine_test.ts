import assert from "node:assert/strict";
import { join } from "node:path";
import { loadPlan } from "../../../runner/plan/load_plan.ts";
import { runEngine } from "../../../runner/run/run_engine.ts";
import { runWorkers } from "../../../runner/run/run_workers.ts";
import { startTarget } from "../../../runner/target/mod.ts";
import { parseText } from "../../_helpers/plan_fixtures.ts";
import { H2_CERT, h2cServer } from "../../_helpers/http2_servers.ts";
import { startTlsTarget } from "../../_helpers/tls_target_process.ts";
import { openLibcNet } from "../../../runner/engine/native/libc_net.ts";
import { openLibSsl } from "../../../runner/engine/native/libssl_tls.ts";
import { HTTP2_REPLY_NOTE } from "../../../runner/engine/http1/mod.ts";

Deno.test("runEngine() stopped before its start instant ran for no time and sent nothing", async () => {
  await using target = await startTarget({ mode: "hello", port: 0 });
  const { plan } = parseText(`name: waits
target: ${target.url}
requests: [{ path: / }]
load:
  connections: 2
  stages: [{ rate: 20/s, duration: 1s }]
`);
  assert.ok(plan);
  const stop = new AbortController();
  const timer = setTimeout(() => stop.abort(), 300);
  try {
    // A shard waiting for a common start 20 s ahead (`--start-at`), stopped while it waits.
    const run = await runEngine({
      plan,
      signal: stop.signal,
      startAtEpochMs: Date.now() + 20_000,
    });
    assert.equal(run.complete, false);
    // Measured from a start that never came, the duration read -19.7 s ("in -19.7s").
    assert.equal(run.durationMs, 0);
    assert.equal(run.recorded.stages[0].counts.scheduled, 0);
    assert.ok(run.startedAt.getTime() > Date.now(), "the start instant had not come");
  } finally {
    clearTimeout(timer);
  }
});

const TLS_IO = [
  { io: "deno", ignore: false },
  { io: "native", ignore: openLibcNet() === undefined || openLibSsl() === undefined },
] as const;

for (const { io, ignore } of TLS_IO) {
  Deno.test({
    name:
      `runEngine() says connections failed their TLS handshake, not that they were slow (${io})`,
    ignore,
    fn: async () => {
      await using target = await startTlsTarget(["--delay", "0"]);
      const { plan } = parseText(`name: untrusted
target: ${target.url}
requests: [{ path: / }]
load:
  connections: 2
  stages: [{ rate: 10/s, duration: 200ms }]
`);
      assert.ok(plan);
      const notices: string[] = [];
      const run = await runEngine({ plan, io, onNotice: (n) => notices.push(n) });
      assert.equal(run.io, io);
      // Each failed at once: "did not open within 5 s (a full listen backlog?)" sent users astray.
      assert.equal(notices.length, 1, notices.join("\n"));
      assert.match(
        notices[0],
        /^2 of 2 connections to https:\/\/127\.0\.0\.1:\d+ failed to open \(tls: 2\): an untrusted certificate\? pass --ca-cert FILE/,
      );
      assert.doesNotMatch(notices[0], /did not open within/);
      assert.equal(run.recorded.stages[0].counts.errors.tls, 2);
    },
  });

  Deno.test({
    name: `runEngine() over https with the server's CA trusted: every request answered (${io})`,
    ignore,
    fn: async () => {
      await using target = await startTlsTarget(["--delay", "0"]);
      const { plan } = parseText(`name: trusted
target: ${target.url}
requests: [{ path: /a }, { method: POST, path: /b, body: { text: "${"x".repeat(40_000)}" } }]
load:
  connections: 3
  stages: [{ rate: 100/s, duration: 1s }]
`);
      assert.ok(plan);
      const run = await runEngine({ plan, io, caCerts: [H2_CERT] });
      assert.equal(run.io, io);
      const counts = run.recorded.stages[0].counts;
      assert.deepEqual([counts.completed, counts.ok, counts.statusCodes], [100, 100, {
        "200": 100,
      }]);
      // A 40 kB body spans several TLS records and socket writes. The target answers without
      // reading it, so its server closes that connection after the answer: each POST's
      // connection is opened again, handshake and all, for a later request.
      assert.ok(run.connections.opened > 3, String(run.connections.opened));
      // The handshake happens before the first write: service time stays below response time.
      const stage = run.recorded.stages[0];
      assert.ok(stage.service.percentilesUs["50"] <= stage.response.percentilesUs["50"]);
    },
  });

  Deno.test({
    name: `runEngine() over https reads answers of many TLS records whole (${io})`,
    ignore,
    fn: async () => {
      await using target = await startTlsTarget(["--bytes", "300000"]);
      const { plan } = parseText(`name: big answers
target: ${target.url}
requests: [{ path: / }]
load:
  connections: 2
  stages: [{ rate: 40/s, duration: 500ms }]
`);
      assert.ok(plan);
      const run = await runEngine({ plan, io, caCerts: [H2_CERT] });
      const counts = run.recorded.stages[0].counts;
      assert.deepEqual([counts.completed, counts.ok], [20, 20]);
      assert.equal(
        run.connections.opened,
        2,
        "each answer read to its end: the stream stays in step",
      );
      assert.ok(counts.bytesReceived >= 20 * 300_000, String(counts.bytesReceived));
    },
  });
}

/**
 * A server in a process of its own (the native path's loop blocks this thread between sends)
 * that answers `Connection: close` and so closes every connection; stopped by its PID.
 */
async function closingServer() {
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "eval",
      `Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: (a) => console.log(a.port) }, () =>
        new Response("bye", { headers: { connection: "close" } }))`,
    ],
    stdout: "piped",
    stderr: "inherit",
    stdin: "null",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  const { value } = await reader.read();
  return {
    url: `http://127.0.0.1:${Number.parseInt(value ?? "")}/`,
    async [Symbol.asyncDispose]() {
      child.kill("SIGTERM");
      await reader.cancel();
      await child.status;
    },
  };
}

const PLAIN_IO = [
  { io: "deno", ignore: false },
  { io: "native", ignore: openLibcNet() === undefined },
] as const;

for (const { io, ignore } of PLAIN_IO) {
  Deno.test({
    name: `runEngine() times each reconnect to a server that closes every connection (${io})`,
    ignore,
    fn: async () => {
      await using server = await closingServer();
      const { plan } = parseText(`name: closes
target: ${server.url}
requests: [{ path: / }]
load:
  connections: 2
  stages: [{ rate: 50/s, duration: 400ms }]
`);
      assert.ok(plan);
      const run = await runEngine({ plan, io });
      assert.equal(run.io, io);
      const counts = run.recorded.stages[0].counts;
      assert.deepEqual([counts.completed, counts.ok], [20, 20]);
      // Each request after the first on either initial connection opened its own.
      assert.ok(run.connections.opened >= 20, String(run.connections.opened));
      const connects = run.recorded.connectTime.count;
      assert.ok(connects >= 18 && connects <= 20, `${connects} connects timed`);
      assert.equal(run.recorded.sendLag.count + run.recorded.queueWait.count, 20);
    },
  });
}

Deno.test("runEngine() reads at most 16 MiB of a body file, even one that grew after the check", async () => {
  await using target = await startTarget({ mode: "hello", port: 0 });
  const dir = await Deno.makeTempDir();
  try {
    const body = join(dir, "body.bin");
    await Deno.writeTextFile(body, "small");
    const planPath = join(dir, "plan.yaml");
    await Deno.writeTextFile(
      planPath,
      `name: grows
target: ${target.url}
requests: [{ method: PUT, path: /, body: { file: body.bin } }]
load: { connections: 1, stages: [{ rate: 1/s, duration: 1s }] }
`,
    );
    const { plan } = await loadPlan(planPath, { requireEnv: true });
    assert.ok(plan);
    // Checked at 5 bytes; by the run it holds 16 MiB and one byte (sparse: nothing is written).
    await Deno.truncate(body, 16 * 1024 * 1024 + 1);
    await assert.rejects(
      () => runEngine({ plan }),
      /body file .*body\.bin is 16777217 bytes; at most 16777216 are read/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("runEngine() names an h2c-only target once, every request still counted as protocol", async () => {
  await using server = await h2cServer();
  const { plan } = parseText(`name: h2c
target: ${server.url}
requests: [{ path: / }]
load:
  connections: 2
  stages: [{ rate: 20/s, duration: 300ms }]
`);
  assert.ok(plan);
  const notices: string[] = [];
  const run = await runEngine({ plan, io: "deno", onNotice: (n) => notices.push(n) });
  assert.deepEqual(notices, [HTTP2_REPLY_NOTE]);
  assert.equal(run.http2Reply, true);
  const { counts } = run.recorded.stages[0];
  assert.equal(counts.errors.protocol, counts.scheduled);
  assert.ok(counts.scheduled >= 5, `scheduled ${counts.scheduled}`);
});

/**
 * A server answering GET /a 401 with a short JSON body, GET /b 503 with 2000 bytes in chunks, and
 * anything else 200.
 */
function statusServer(): Deno.HttpServer<Deno.NetAddr> {
  return Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (request) => {
    const path = new URL(request.url).pathname;
    if (path === "/a") return new Response('{"error":"invalid token"}', { status: 401 });
    if (path === "/b") {
      const chunk = new TextEncoder().encode("busy ".repeat(40)); // 200 bytes
      let sent = 0;
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent++ === 10) controller.close();
          else controller.enqueue(chunk);
        },
      });
      return new Response(body, { status: 503 });
    }
    return new Response("ok");
  });
}

for (
  const { io, ignore } of [
    { io: "deno", ignore: false },
    { io: "native", ignore: openLibcNet() === undefined },
  ] as const
) {
  Deno.test({
    name: `a run keeps the first body of each status a label did not expect, bounded (${io})`,
    ignore,
    fn: async () => {
      await using server = statusServer();
      const { plan } = parseText(`name: bodies
target: http://127.0.0.1:${server.addr.port}
requests:
  - { path: /a }
  - { path: /b }
  - { path: /c }
load:
  connections: 3
  workers: 2
  stages: [{ rate: 90/s, duration: 1s }]
`);
      assert.ok(plan);
      // The native path runs in engine workers (two here: their samples merged); Deno's sockets
      // on this thread.
      const run = io === "native" ? await runWorkers({ plan, io }) : await runEngine({ plan, io });
      assert.equal(run.io, io);
      const codes = run.recorded.stages[0].labels.map((l) => Object.keys(l.counts.statusCodes));
      assert.deepEqual(codes, [["401"], ["503"], ["200"]]);
      assert.equal(run.recorded.stages[0].counts.completed, 90);
      const samples = [...run.bodySamples ?? []].sort((x, y) => x.labelIndex - y.labelIndex);
      const text = (b: Uint8Array) => new TextDecoder().decode(b);
      assert.deepEqual(
        samples.map((s) => [s.labelIndex, s.status, text(s.bytes), s.bodyBytes]),
        [
          [0, 401, '{"error":"invalid token"}', 25],
          // Chunk data only, the first 512 bytes of its 2000.
          [1, 503, "busy ".repeat(103).slice(0, 512), 2000],
        ],
      );
      for (const s of samples) assert.ok(s.atMs >= 0 && s.atMs <= run.durationMs, `${s.atMs}`);
    },
  });
}
