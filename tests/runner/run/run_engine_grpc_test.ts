/**
 * gRPC runs end to end at the engine level: runEngine with a hand-built plan (the plan reader's
 * `call:` is another part's) whose request is a gRPC call: POST to the method's path with the
 * gRPC headers, a `grpc` body framed by the codec of the plan's schema (the known HelloRequest bytes),
 * `plan.grpc` set and `load.http` 2 (`te: trailers` is added by prepareRequest for a `grpc` body). Against the in-test gRPC server, and grpc-go's greeter
 * (skipped, with a note, where it is not built).
 */
import assert from "node:assert/strict";
import { type EngineRun, runEngine } from "../../../runner/run/run_engine.ts";
import { openLibcNet } from "../../../runner/engine/native/libc_net.ts";
import type { RequestCounts } from "../../../runner/model/run_result.ts";
import { greeterPlan } from "../../_helpers/grpc_fixtures.ts";
import { freePort } from "../../_helpers/free_port.ts";
import { H2_CERT } from "../../_helpers/http2_servers.ts";
import { GRPC_BIN, grpcExample, grpcServer, startExample } from "../../_helpers/grpc_server.ts";

const GREETER = grpcExample("greeter_server");
if (GREETER === undefined) {
  console.warn(`run_engine_grpc_test: greeter tests skipped, no greeter_server in ${GRPC_BIN}`);
}

const greeter = (origin: string, rate: string, duration: string) =>
  greeterPlan(origin, `{ connections: 2, stages: [{ rate: ${rate}, duration: ${duration} }] }`);

/** The run's one stage's counts, checked to add up: scheduled = completed = ok + every error. */
function addsUp(run: EngineRun): RequestCounts {
  const c = run.recorded.stages.at(-1)!.counts;
  const errors = Object.values(c.errors).reduce((a, b) => a + (b ?? 0), 0);
  assert.equal(c.completed, c.scheduled, "every scheduled call has an outcome");
  assert.equal(c.ok + errors, c.completed, JSON.stringify(c));
  return c;
}

Deno.test("a gRPC run counts OK calls ok and UNAVAILABLE as an unexpected status", async () => {
  const seen = new Set<string>();
  await using server = await grpcServer({
    answer: (call) => {
      seen.add(`${call.headers["content-type"]}; te ${call.headers.te}; ${call.body.join(" ")}`);
      return call.n % 5 === 4 ? { status: 14, message: "down" } : { delayMs: 2 };
    },
  });
  const plan = greeter(server.origin, "100/s", "500ms");
  const run = await runEngine({ plan, io: "deno" });
  const c = addsUp(run);
  assert.deepEqual([c.scheduled, c.ok, c.errors.unexpected_status], [50, 40, 10]);
  assert.equal(server.calls(), 50);
  assert.deepEqual([...seen], [
    "application/grpc; te trailers; 0 0 0 0 8 10 6 117 115 101 114 45 49",
  ]);
  // Each call sent the framed message: 13 octets of body, beside its head.
  assert.ok(c.bytesSent >= 50 * 13, String(c.bytesSent));
  assert.ok(run.http2 !== undefined, "the gRPC protocol records HTTP/2's pool");
});

Deno.test("a gRPC run counts a broken reply as protocol, never ok", async () => {
  await using server = await grpcServer({
    answer: (call) => call.n % 2 === 1 ? { broken: "truncated" } : {},
  });
  const run = await runEngine({
    plan: greeter(server.origin, "50/s", "400ms"),
    io: "deno",
  });
  const c = addsUp(run);
  assert.deepEqual([c.scheduled, c.ok, c.errors.protocol], [20, 10, 10]);
});

Deno.test("a gRPC run over TLS (ALPN h2) completes every call, the test certificate trusted", async () => {
  await using server = await grpcServer({ tls: true });
  const plan = greeter(server.origin, "100/s", "300ms");
  const run = await runEngine({ plan, io: "deno", caCerts: [H2_CERT] });
  const c = addsUp(run);
  assert.deepEqual([c.scheduled, c.ok], [30, 30]);
  assert.equal(server.calls(), 30);
});

for (const io of openLibcNet() ? ["native", "deno"] as const : ["deno"] as const) {
  Deno.test({
    name: `a gRPC run against grpc-go's greeter: every call OK, each logged once (${io} I/O)`,
    ignore: GREETER === undefined,
    fn: async () => {
      await using target = await startExample(GREETER!, freePort());
      const run = await runEngine({
        plan: greeter(target.origin, "200/s", "500ms"),
        io,
      });
      assert.equal(run.io, io);
      const c = addsUp(run);
      assert.deepEqual([c.scheduled, c.ok], [100, 100]);
      await new Promise((resolve) => setTimeout(resolve, 100)); // its log lines written
      assert.equal(target.log().match(/Received: user-1/g)?.length, 100);
    },
  });
}
