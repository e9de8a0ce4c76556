/**
 * `trace: true` end to end: servers that log the `traceparent` each request carried, and delay a
 * few requests on purpose. Every request's trace id is valid, unique and request n's of the seed;
 * the slowest requests the run reports are exactly the ones the server delayed, by trace id. Over
 * HTTP/1.1 (one engine, and two engine workers), HTTP/2, gRPC, templated requests and a journey's
 * steps.
 */
import assert from "node:assert/strict";
import http2 from "node:http2";
import type { AddressInfo } from "node:net";
import { type EngineRun, runEngine } from "../../../runner/run/run_engine.ts";
import { runWorkers } from "../../../runner/run/run_workers.ts";
import { openLibcNet } from "../../../runner/engine/native/libc_net.ts";
import { traceIdHex } from "../../../runner/schedule/mod.ts";
import type { LabelResult } from "../../../runner/model/mod.ts";
import { parseText } from "../../_helpers/plan_fixtures.ts";
import { greeterPlan } from "../../_helpers/grpc_fixtures.ts";
import { grpcServer } from "../../_helpers/grpc_server.ts";

const SEED = 11;
const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/;
/** The server delays every request it receives whose arrival index is 20 mod this. */
const SLOW_EVERY = 40;
const SLOW_MS = 300;

interface Seen {
  traceparent: string | undefined;
  tracestate: string | undefined;
  slow: boolean;
}

interface TracingServer extends AsyncDisposable {
  url: string;
  seen: Seen[];
}

/** Whether the i-th request a server receives is delayed. */
const isSlow = (i: number) => i % SLOW_EVERY === 20;
const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function http1Server(): TracingServer {
  const seen: Seen[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    const slow = isSlow(seen.length);
    seen.push({
      traceparent: req.headers.get("traceparent") ?? undefined,
      tracestate: req.headers.get("tracestate") ?? undefined,
      slow,
    });
    if (slow) await delay(SLOW_MS);
    return new Response("ok");
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    seen,
    [Symbol.asyncDispose]: () => server.shutdown(),
  };
}

async function h2cServer(): Promise<TracingServer> {
  const seen: Seen[] = [];
  const server = http2.createServer();
  server.on("stream", (stream, headers) => {
    const slow = isSlow(seen.length);
    const header = (name: string) => headers[name] as string | undefined;
    seen.push({ traceparent: header("traceparent"), tracestate: header("tracestate"), slow });
    setTimeout(() => {
      if (stream.destroyed) return;
      stream.respond({ ":status": 200 });
      stream.end("ok");
    }, slow ? SLOW_MS : 0);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    [Symbol.asyncDispose]: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function tracedPlan(url: string, requests: string, load = "", trace = "trace: true") {
  const { plan, issues } = parseText(`name: traced
target: ${url}
${trace}
requests:
${requests}
load:
  connections: 8
  seed: ${SEED}
${load}  stages: [{ rate: 200/s, duration: 1s }]
`);
  assert.ok(plan, JSON.stringify(issues));
  return plan;
}

/** The trace ids the server saw: each valid, none twice; and which it delayed. */
function traceIdsSeen(seen: readonly Seen[]): { all: Set<string>; slow: Set<string> } {
  const all = new Set<string>();
  const slow = new Set<string>();
  for (const s of seen) {
    const match = TRACEPARENT.exec(s.traceparent ?? "");
    assert.ok(match, `traceparent ${s.traceparent}`);
    assert.notEqual(match[1], "0".repeat(32));
    assert.notEqual(match[2], "0".repeat(16));
    assert.ok(!all.has(match[1]), `trace id ${match[1]} sent twice`);
    all.add(match[1]);
    if (s.slow) slow.add(match[1]);
  }
  return { all, slow };
}

/** The run's slowest requests are the delayed ones, each named by the trace id the server saw. */
function assertSlowestAreTheDelayed(label: LabelResult, slow: Set<string>, all: Set<string>) {
  assert.ok(slow.size >= 4, `${slow.size} delayed`);
  const slowest = label.slowest!;
  assert.equal(slowest.length, 10);
  const top = slowest.slice(0, slow.size);
  assert.deepEqual(new Set(top.map((r) => r.traceId)), slow);
  for (const r of top) assert.ok(r.responseUs >= SLOW_MS * 1000, `${r.responseUs} us`);
  assert.ok(slowest[slow.size].responseUs < SLOW_MS * 1000, "the next one was not delayed");
  for (const r of slowest) assert.ok(all.has(r.traceId!), `${r.traceId} was sent`);
  assert.ok(label.exemplars!.length >= 2);
  for (const e of label.exemplars!) assert.ok(all.has(e.traceId!), `exemplar ${e.traceId}`);
}

/** Request n's trace ids (step 0) for n in [0, count): what the seed gives. */
function expectedIds(count: number): Set<string> {
  return new Set(Array.from({ length: count }, (_, n) => traceIdHex(SEED, n, 0)));
}

const ONE_REQUEST = "  - { path: / }";

Deno.test("HTTP/1.1: every request carries its own trace id; the slowest name the delayed", async () => {
  await using server = http1Server();
  const run: EngineRun = await runEngine({
    plan: tracedPlan(server.url, ONE_REQUEST, "", 'trace: { tracestate: "acme=7" }'),
    io: "deno",
  });
  assert.equal(run.recorded.stages[0].counts.ok, 200);
  const { all, slow } = traceIdsSeen(server.seen);
  assert.equal(all.size, 200);
  assert.deepEqual(all, expectedIds(200), "request n's trace id is the seed's and n's");
  assert.ok(server.seen.every((s) => s.tracestate === "acme=7"));
  assertSlowestAreTheDelayed(run.recorded.stages[0].labels[0], slow, all);
});

for (const io of openLibcNet() ? ["deno", "native"] as const : ["deno"] as const) {
  Deno.test(`HTTP/1.1 over two engine workers (${io}): ids never collide, merge exactly`, async () => {
    await using server = http1Server();
    const run = await runWorkers({
      plan: tracedPlan(server.url, ONE_REQUEST, "  workers: 2\n"),
      io,
    });
    assert.equal(run.recorded.stages[0].counts.ok, 200);
    const { all, slow } = traceIdsSeen(server.seen);
    assert.deepEqual(all, expectedIds(200));
    assertSlowestAreTheDelayed(run.recorded.stages[0].labels[0], slow, all);
  });
}

Deno.test("a templated request rendered ahead carries its trace id after its drawn values", async () => {
  await using server = http1Server();
  const { plan, issues } = parseText(`name: templated
target: ${server.url}
trace: true
vars: { id: uuid }
requests:
  - { path: "/orders/{{id}}", headers: { X-Id: "{{id}}" } }
load:
  connections: 8
  seed: ${SEED}
  stages: [{ rate: 200/s, duration: 1s }]
`);
  assert.ok(plan, JSON.stringify(issues));
  const run = await runEngine({ plan, io: "deno" });
  assert.equal(run.recorded.stages[0].counts.ok, 200);
  const { all, slow } = traceIdsSeen(server.seen);
  assert.deepEqual(all, expectedIds(200));
  assertSlowestAreTheDelayed(run.recorded.stages[0].labels[0], slow, all);
});

for (const io of openLibcNet() ? ["deno", "native"] as const : ["deno"] as const) {
  Deno.test(`HTTP/2 (${io}): every stream carries its own trace id; the slowest name the delayed`, async () => {
    await using server = await h2cServer();
    const plan = tracedPlan(server.url, ONE_REQUEST);
    plan.load.http = "2";
    const run = io === "deno" ? await runEngine({ plan, io }) : await runWorkers({ plan, io });
    assert.equal(run.http2 !== undefined, true);
    assert.equal(run.recorded.stages[0].counts.ok, 200);
    const { all, slow } = traceIdsSeen(server.seen);
    assert.deepEqual(all, expectedIds(200));
    assert.ok(server.seen.every((s) => s.tracestate === undefined));
    assertSlowestAreTheDelayed(run.recorded.stages[0].labels[0], slow, all);
  });
}

Deno.test("gRPC: every call carries its own trace id; the slowest name the delayed", async () => {
  const seen: Seen[] = [];
  await using server = await grpcServer({
    answer: (call) => {
      const slow = isSlow(seen.length);
      const traceparent = call.headers.traceparent as string | undefined;
      seen.push({ traceparent, tracestate: undefined, slow });
      return slow ? { delayMs: SLOW_MS } : {};
    },
  });
  const plan = greeterPlan(
    server.origin,
    `{ connections: 8, seed: ${SEED}, stages: [{ rate: 200/s, duration: 1s }] }`,
  );
  plan.trace = {};
  const run = await runEngine({ plan, io: "deno" });
  assert.equal(run.recorded.stages[0].counts.ok, 200);
  const { all, slow } = traceIdsSeen(seen);
  assert.deepEqual(all, expectedIds(200));
  assertSlowestAreTheDelayed(run.recorded.stages[0].labels[0], slow, all);
});

Deno.test("a journey's steps each carry a trace id of their own: the journey's n and the step", async () => {
  await using server = http1Server();
  const plan = tracedPlan(
    server.url,
    `  - journey: order
    steps:
      - { name: create, method: POST, path: /orders, body: { json: { a: 1 } } }
      - { name: read, path: /orders/1 }`,
  );
  const run = await runEngine({ plan, io: "deno" });
  const [create, read] = run.recorded.stages[0].labels;
  assert.equal(create.counts.ok + read.counts.ok, 400);
  const { all } = traceIdsSeen(server.seen);
  const expected = new Set(
    Array.from({ length: 200 }, (_, n) => [traceIdHex(SEED, n, 0), traceIdHex(SEED, n, 1)]).flat(),
  );
  assert.deepEqual(all, expected);
  assert.equal(read.slowest!.length, 10);
  for (const r of [...create.slowest!, ...read.slowest!]) assert.ok(all.has(r.traceId!));
});

Deno.test("without trace no traceparent is sent, and the slowest carry no trace id", async () => {
  await using server = http1Server();
  const run = await runEngine({ plan: tracedPlan(server.url, ONE_REQUEST, "", ""), io: "deno" });
  assert.ok(server.seen.every((s) => s.traceparent === undefined));
  const [label] = run.recorded.stages[0].labels;
  assert.equal(label.slowest!.length, 10);
  assert.ok(label.slowest!.every((r) => r.traceId === undefined));
  assert.ok(label.slowest![0].responseUs >= SLOW_MS * 1000);
});
