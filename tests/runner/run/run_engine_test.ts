import assert from "node:assert/strict";
import { join } from "node:path";
import { loadPlan } from "../../../runner/plan/load_plan.ts";
import { runEngine } from "../../../runner/run/run_engine.ts";
import { startTarget } from "../../../runner/target/mod.ts";
import { parseText } from "../../_helpers/plan_fixtures.ts";
import { h2cServer } from "../../_helpers/http2_servers.ts";
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

Deno.test("runEngine() says initial connections failed their TLS handshake, not that they were slow", async () => {
  const tls = new URL("../../testdata/tls/", import.meta.url);
  await using server = Deno.serve({
    hostname: "127.0.0.1",
    port: 0,
    cert: await Deno.readTextFile(new URL("cert.pem", tls)),
    key: await Deno.readTextFile(new URL("key.pem", tls)),
    onListen: () => {},
  }, () => new Response("ok"));
  const { plan } = parseText(`name: untrusted
target: https://127.0.0.1:${server.addr.port}
requests: [{ path: / }]
load:
  connections: 2
  stages: [{ rate: 10/s, duration: 200ms }]
`);
  assert.ok(plan);
  const notices: string[] = [];
  const run = await runEngine({ plan, onNotice: (n) => notices.push(n) });
  // Each failed at once: "did not open within 5 s (a full listen backlog?)" sent users astray.
  assert.equal(notices.length, 1, notices.join("\n"));
  assert.match(
    notices[0],
    /^2 of 2 connections to https:\/\/127\.0\.0\.1:\d+ failed to open \(tls: 2\): an untrusted certificate\? pass --ca-cert FILE/,
  );
  assert.doesNotMatch(notices[0], /did not open within/);
  assert.equal(run.recorded.stages[0].counts.errors.tls, 2);
});

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
