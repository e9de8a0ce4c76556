import assert from "node:assert/strict";
import { composeShards, runWorkers, workerCount } from "../../../runner/run/run_workers.ts";
import { startTarget } from "../../../runner/target/mod.ts";
import { runEngine } from "../../../runner/run/run_engine.ts";
import { stuckListener } from "../../_helpers/tcp_server.ts";
import { decodeHistogram } from "../../../runner/hdr/hdr_codec.ts";
import { parseText } from "../../_helpers/plan_fixtures.ts";
import { openLibcNet } from "../../../runner/engine/native/libc_net.ts";

Deno.test("workerCount() runs on the main thread below 4 cores and one worker per core above", () => {
  assert.equal(workerCount("auto", 2), 1);
  assert.equal(workerCount("auto", 8), 8);
  assert.equal(workerCount(3, 2), 3);
});

Deno.test("composeShards() nests a worker's share inside a run's shard without overlap", () => {
  const outer = { index: 1, count: 2 };
  const owners = new Map<number, string>();
  for (let w = 0; w < 3; w++) {
    const s = composeShards(outer, { index: w, count: 3 });
    for (let n = 0; n < 60; n++) {
      if (n % s.count === s.index) {
        assert.ok(!owners.has(n), `request ${n} twice`);
        owners.set(n, `w${w}`);
      }
    }
  }
  // Exactly the outer shard's requests (the odd ones), each owned by one worker.
  assert.deepEqual(
    [...owners.keys()].sort((a, b) => a - b),
    [...Array(30).keys()].map((k) => 2 * k + 1),
  );
});

Deno.test("runWorkers() spreads a plan over workers and merges their records exactly", async () => {
  await using target = await startTarget({ mode: "hello", port: 0 });
  const { plan } = parseText(`name: workers
target: ${target.url}
requests:
  - { name: a, path: /a, weight: 3 }
  - { name: b, path: /b }
load:
  connections: 4
  workers: 2
  stages: [{ rate: 400/s, duration: 1s }]
`);
  assert.ok(plan);
  const run = await runWorkers({ plan });
  assert.equal(run.complete, true);
  assert.equal(run.scheduled, 400);
  const stage = run.recorded.stages[0];
  assert.equal(stage.counts.scheduled, 400);
  assert.equal(stage.counts.completed, 400);
  assert.equal(stage.counts.ok, 400);
  const [a, b] = stage.labels.map((l) => l.counts.completed);
  assert.equal(a + b, 400);
  assert.ok(Math.abs(a - 300) <= 2, `a ${a}`); // the weighted mix, within a request or two
  // Merged, not averaged: the stage histogram holds every request once.
  assert.equal(decodeHistogram(stage.response.hdr).totalCount, 400);
  const intervalTotal = run.recorded.intervals.reduce((n, i) => n + i.counts.completed, 0);
  assert.equal(intervalTotal, 400);
  // Each worker opens its share of the 4 connections, kept alive: 4 sockets in all.
  assert.deepEqual(run.connections, { opened: 4, peak: 4 });
});

Deno.test("runWorkers() counts every socket it opened when the server closes each connection", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const body = new TextEncoder().encode(
    "HTTP/1.1 200 OK\r\ncontent-length: 2\r\nconnection: close\r\n\r\nok",
  );
  const serving = (async () => {
    for await (const conn of listener) {
      (async () => {
        const buf = new Uint8Array(4096);
        try {
          if ((await conn.read(buf)) !== null) await conn.write(body);
        } catch { /* the client went away */ }
        conn.close();
      })();
    }
  })();
  try {
    const { plan } = parseText(`name: closing
target: http://127.0.0.1:${listener.addr.port}
requests: [{ path: / }]
load:
  connections: 2
  max_connections: 2
  workers: 1
  stages: [{ rate: 50/s, duration: 1s }]
`);
    assert.ok(plan);
    const run = await runWorkers({ plan });
    assert.equal(run.recorded.stages[0].counts.ok, 50);
    // One socket per request (2 opened ahead, one of them used first), never fewer than 50.
    assert.ok(run.connections.opened >= 50, `opened ${run.connections.opened}`);
    assert.ok(run.connections.opened <= 52, `opened ${run.connections.opened}`);
    assert.equal(run.connections.peak, 2);
  } finally {
    listener.close();
    await serving.catch(() => {});
  }
});

Deno.test("runWorkers() measures its floor after the warmup: engine stalls and platform hiccups", async () => {
  await using target = await startTarget({ mode: "hello", port: 0 });
  const { plan } = parseText(`name: floor
target: ${target.url}
requests: [{ path: / }]
load:
  connections: 2
  stages:
    - { rate: 200/s, duration: 400ms, warmup: true }
    - { rate: 200/s, duration: 600ms }
`);
  assert.ok(plan);
  const run = await runWorkers({ plan });
  const { engineStall, platformHiccup } = run.recorded;
  // The engine resumes at least once per request it sleeps toward (120 after the warmup).
  assert.ok(engineStall.count >= 100, `engine stall samples ${engineStall.count}`);
  // The probe sleeps 1 ms at a time: about 600 samples in the measured 600 ms, none in the
  // warmup (a descheduled probe records fewer, so only the upper bound is tight).
  assert.ok(platformHiccup.count >= 50, `hiccup samples ${platformHiccup.count}`);
  assert.ok(platformHiccup.count <= 800, `hiccup samples ${platformHiccup.count}`);
  // Intervals were encoded off the engine thread and came back whole.
  const completed = run.recorded.intervals.reduce((n, i) => n + i.counts.completed, 0);
  assert.equal(completed, 200);
});

Deno.test("runWorkers() takes the native I/O path for plain HTTP where it can, Deno's when asked", async () => {
  await using target = await startTarget({ mode: "hello", port: 0 });
  const { plan } = parseText(`name: io
target: ${target.url}
requests: [{ path: / }]
load:
  connections: 2
  stages: [{ rate: 200/s, duration: 300ms }]
`);
  assert.ok(plan);
  const nativePossible = openLibcNet() !== undefined;
  for (const io of ["auto", "deno"] as const) {
    const run = await runWorkers({ plan, io });
    const expected = io === "deno" || !nativePossible ? "deno" : "native";
    assert.equal(run.io, expected, io);
    // Either path accounts for every request the same way.
    assert.equal(run.complete, true);
    assert.deepEqual(run.recorded.stages[0].counts.statusCodes, { "200": 60 }, io);
  }
  if (nativePossible) {
    // Asking for the native path where it cannot run is an error, never a silent fallback.
    const unresolved = parseText(`name: nowhere
target: http://no-such-host.invalid:1
requests: [{ path: / }]
load: { connections: 1, stages: [{ rate: 1/s, duration: 1s }] }
`).plan;
    assert.ok(unresolved);
    await assert.rejects(
      runWorkers({ plan: unresolved, io: "native" }),
      /native I\/O path cannot run: no-such-host\.invalid did not resolve/,
    );
  }
});

Deno.test("a target that never accepts: opening gives up in time, requests time out, the run ends", async () => {
  using stuck = stuckListener();
  if (stuck === undefined) return; // no FFI here: nothing to test with
  const { plan } = parseText(`name: stuck
target: ${stuck.url}
requests: [{ path: /, timeout: 300ms }]
load:
  connections: 4
  stages: [{ rate: 20/s, duration: 500ms }]
`);
  assert.ok(plan);
  for (const io of ["deno", "native"] as const) {
    const notices: string[] = [];
    const run = await runEngine({
      plan,
      io: openLibcNet() === undefined ? "deno" : io,
      connectTimeoutMs: 300,
      onNotice: (text) => notices.push(text),
    });
    assert.equal(run.complete, true, io);
    // The backlog takes a connection or two at most; the others never open.
    assert.ok((run.unopenedConnections ?? 0) >= 2, `${io}: ${run.unopenedConnections} unopened`);
    assert.match(notices.join("\n"), /did not open within 0\.3 s/, io);
    const counts = run.recorded.stages[0].counts;
    assert.equal(counts.completed, 10, io);
    assert.equal(counts.errors.timeout, 10, io);
  }
});

Deno.test("Ctrl-C while connections are still opening ends the run at once", async () => {
  using stuck = stuckListener();
  if (stuck === undefined) return;
  const { plan } = parseText(`name: stuck
target: ${stuck.url}
requests: [{ path: / }]
load:
  connections: 4
  stages: [{ rate: 20/s, duration: 10s }]
`);
  assert.ok(plan);
  // Stopped while opening, and stopped before the opening even began. Without the fix each waits
  // for the kernel's SYN retries (about two minutes) or the connect timeout.
  for (const abortAfterMs of [200, 0]) {
    const stop = new AbortController();
    if (abortAfterMs === 0) stop.abort();
    else setTimeout(() => stop.abort(), abortAfterMs);
    const startedMs = performance.now();
    const run = await runEngine({ plan, signal: stop.signal, connectTimeoutMs: 120_000 });
    const tookMs = performance.now() - startedMs;
    assert.equal(run.complete, false);
    assert.ok(tookMs < 30_000, `took ${Math.round(tookMs)} ms to stop`);
  }
});

for (const { workers, io } of [{ workers: 1, io: "deno" }, { workers: 2, io: "auto" }] as const) {
  Deno.test({
    name: `runWorkers() hands back the contention samples that cover the run (${workers} on ${io})`,
    ignore: Deno.build.os !== "linux",
    async fn() {
      await using target = await startTarget({ mode: "hello", port: 0 });
      const { plan } = parseText(`name: contention
target: ${target.url}
requests: [{ name: a, path: /a }]
load: { connections: 2, workers: ${workers}, stages: [{ rate: 100/s, duration: 1s }] }
`);
      assert.ok(plan);
      const run = await runWorkers({ plan, io });
      const record = run.contention;
      assert.ok(record, "sampled");
      const t0 = record.startAtEpochMs;
      assert.ok(t0 !== undefined, "told the schedule's time zero");
      assert.ok(Math.abs(t0 - run.startedAt.getTime()) < 5, "the run's own start");
      const times = record.samples.map((s) => s.atEpochMs);
      assert.ok(times[0] <= t0, "a sample before the first interval starts");
      assert.ok(times.at(-1)! >= t0 + run.durationMs, "and one after the run ended");
      // The target runs in this process: no service apart from the generator, no measure of it.
      assert.equal(record.service, undefined);
      assert.equal(record.local, false);
    },
  });
}
