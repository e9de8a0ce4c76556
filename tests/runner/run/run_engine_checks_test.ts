import assert from "node:assert/strict";
import http2 from "node:http2";
import type { AddressInfo } from "node:net";
import { runEngine } from "../../../runner/run/run_engine.ts";
import { runWorkers } from "../../../runner/run/run_workers.ts";
import type { EngineRun } from "../../../runner/run/run_engine.ts";
import { parseText } from "../../_helpers/plan_fixtures.ts";
import { openLibcNet } from "../../../runner/engine/native/libc_net.ts";
import { KEEP_BODY_BYTES } from "../../../runner/engine/kept_response.ts";

/** Each path's answer: status, content type, body. */
function answer(path: string): [number, string, string] {
  if (path === "/good") return [200, "application/json", '{"state":"open","id":7,"n":3}'];
  if (path === "/bad") return [200, "text/plain", '{"state":"closed","n":9}'];
  // Past the kept limit: its end is never read, so `contains` misses it and `max_bytes` fails.
  if (path === "/big") return [200, "text/plain", "a".repeat(KEEP_BODY_BYTES + 10) + "zzz"];
  if (path === "/missing") return [404, "text/plain", "no"];
  return [200, "text/plain", "plain"];
}

function http1Server(): Deno.HttpServer<Deno.NetAddr> {
  return Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (request) => {
    const [status, type, body] = answer(new URL(request.url).pathname);
    // `/bad` goes chunked (a stream), the rest with a Content-Length.
    const payload = status === 200 && type === "text/plain" && body.startsWith("{")
      ? ReadableStream.from([
        new TextEncoder().encode(body.slice(0, 5)),
        new TextEncoder().encode(body.slice(5)),
      ])
      : body;
    return new Response(payload, { status, headers: { "content-type": type } });
  });
}

async function h2cServer(): Promise<{ port: number; close: () => Promise<void> }> {
  const server = http2.createServer();
  server.on("stream", (stream, headers) => {
    const [status, type, body] = answer(String(headers[":path"]).split("?")[0]);
    stream.respond({ ":status": status, "content-type": type });
    stream.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return { port, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

const PLAN = (port: number) =>
  `name: checks
target: http://127.0.0.1:${port}
vars: { n: counter }
requests:
  - path: "/good?n={{n}}" # rendered ahead, per request
    check:
      status: 200
      header: { content-type: json }
      json: { /state: open, /id: exists, /err: absent, /n: { lt: 5, gt: 0 } }
      body: { contains: open }
      max_bytes: 1000
  - path: /bad
    check:
      header: { content-type: json }
      json: { /state: open, /n: { lt: 5 } }
      body: { matches: "^\\\\{" }
      max_bytes: 5
  - path: /big
    check: { max_bytes: 4096, body: { contains: zzz } }
  - path: /missing
    check: { status: 200, body: { contains: "no" } }
  - path: /plain
load:
  connections: 2
  workers: 2
  stages: [{ rate: 100/s, duration: 1s }]
`;

/** Each label's checks as `text: failed/evaluated`, and its counts. */
function checksOf(run: EngineRun) {
  return run.recorded.stages[0].labels.map((l) => ({
    label: l.label,
    completed: l.counts.completed,
    ok: l.counts.ok,
    errors: l.counts.errors,
    checks: l.checks?.map((c) => `${c.text}: ${c.failed}/${c.evaluated}`),
  }));
}

function assertChecks(run: EngineRun): void {
  const labels = checksOf(run);
  const n = labels.map((l) => l.completed);
  assert.equal(n.reduce((a, b) => a + b, 0), 100);
  assert.ok(n.every((k) => k > 0), JSON.stringify(labels));
  const [good, bad, big, missing, plain] = labels;
  assert.deepEqual(good.checks, [
    `status 200: 0/${n[0]}`,
    `content-type ~ json: 0/${n[0]}`,
    `/state == open: 0/${n[0]}`,
    `/id exists: 0/${n[0]}`,
    `/err absent: 0/${n[0]}`,
    `/n < 5: 0/${n[0]}`,
    `/n > 0: 0/${n[0]}`,
    `body contains open: 0/${n[0]}`,
    `max_bytes 1000: 0/${n[0]}`,
  ]);
  assert.deepEqual([good.ok, good.errors], [n[0], {}]);
  assert.deepEqual(bad.checks, [
    `content-type ~ json: ${n[1]}/${n[1]}`,
    `/state == open: ${n[1]}/${n[1]}`,
    `/n < 5: ${n[1]}/${n[1]}`,
    `body ~ ^\\{: 0/${n[1]}`,
    `max_bytes 5: ${n[1]}/${n[1]}`,
  ]);
  assert.deepEqual([bad.ok, bad.errors], [0, { check_failed: n[1] }]);
  assert.deepEqual(big.checks, [
    `max_bytes 4096: ${n[2]}/${n[2]}`,
    `body contains zzz: ${n[2]}/${n[2]}`,
  ]);
  assert.deepEqual(big.errors, { check_failed: n[2] });
  // A failed `status` check is an unexpected status, as `expect` makes it; its body check passed.
  assert.deepEqual(missing.checks, [`status 200: ${n[3]}/${n[3]}`, `body contains no: 0/${n[3]}`]);
  assert.deepEqual(missing.errors, { unexpected_status: n[3] });
  assert.deepEqual([plain.checks, plain.ok], [undefined, n[4]]);
}

function plan(port: number) {
  const { plan, issues } = parseText(PLAN(port));
  assert.ok(plan, JSON.stringify(issues));
  return plan;
}

Deno.test("every check kind passes and fails through a run on Deno's sockets", async () => {
  await using server = http1Server();
  assertChecks(await runEngine({ plan: plan(server.addr.port), io: "deno" }));
});

Deno.test({
  name: "every check kind passes and fails through a run on the native path, two workers merged",
  ignore: openLibcNet() === undefined,
  fn: async () => {
    await using server = http1Server();
    const run = await runWorkers({ plan: plan(server.addr.port), io: "native" });
    assert.equal(run.io, "native");
    assertChecks(run);
  },
});

for (const io of ["deno", "native"] as const) {
  Deno.test({
    name: `every check kind passes and fails through an HTTP/2 run (h2c, ${io} I/O)`,
    ignore: io === "native" && openLibcNet() === undefined,
    fn: async () => {
      const server = await h2cServer();
      try {
        const p = plan(server.port);
        p.load.http = "2";
        const run = io === "native"
          ? await runWorkers({ plan: p, io })
          : await runEngine({ plan: p, io });
        assertChecks(run);
      } finally {
        await server.close();
      }
    },
  });
}
