/**
 * Truth tests over gRPC, as the HTTP/2 ones (http2_truth_test.ts), against the in-test gRPC
 * server in a process of its own (grpc_target_main.ts), h2c, on the native path and on Deno's
 * sockets. The engine runs here (runEngine; the framed message through its `grpcBody` seam);
 * the target's event loop and timers are its own.
 *
 * - A fixed 500 ms per call: p50, p90 and p99 within 2% of it, as over HTTP/2 (200/s, 100 calls
 *   in flight on 200 streams: none waits for one, so the corrected time is the server's alone).
 * - The stall distribution of stall_truth_test.ts (a freeze of S = 1 s at the end of every
 *   P = 5 s: p50 ≈ 0, p90 = 500 ms, p99 = 950 ms, max = 1 s) within 5%, every call completed and
 *   OK: nothing dropped during a stall. 4 connections × 50 streams hold a freeze's 200 calls on
 *   the wire; the server answers them together at its end, which reads p90 518-521 ms, p99
 *   970 ms, max 1021-1025 ms here (node:http2 answering 200 calls in a burst). With 25 streams,
 *   the 100 calls that wait for a stream go out as answers free them: p90 read 532 ms once.
 */
import assert from "node:assert/strict";
import { openLibcNet } from "../../runner/engine/native/libc_net.ts";
import type { RecordedRun } from "../../runner/recorder/recorder.ts";
import { runEngine } from "../../runner/run/run_engine.ts";
import { greeterPlan } from "../_helpers/grpc_fixtures.ts";
import { startGrpcTarget } from "../_helpers/grpc_server.ts";
import { offTruth, STALL_TRUTH, type Truth } from "../_helpers/truth.ts";

/** A 1 s warmup, then one stage, as truth.ts's runAgainst; `streams` per connection. */
async function runGrpc(
  origin: string,
  load: { rate: string; duration: string; connections: number; streams: number },
  io: "native" | "deno",
): Promise<RecordedRun> {
  const plan = greeterPlan(
    origin,
    `{ connections: ${load.connections}, max_connections: ${load.connections}, stages: [` +
      `{ rate: ${load.rate}, duration: 1s, warmup: true }, ` +
      `{ rate: ${load.rate}, duration: ${load.duration} }] }`,
  );
  plan.load.maxStreams = load.streams;
  const run = await runEngine({ plan, io });
  assert.equal(run.io, io);
  assert.equal(run.complete, true);
  return run.recorded;
}

const FIXED_LOAD = { rate: "200/s", duration: "5s", connections: 4, streams: 50 };
const STALL_LOAD = { rate: "200/s", duration: "10s", connections: 4, streams: 50 };

for (const io of ["native", "deno"] as const) {
  const ignore = io === "native" && openLibcNet() === undefined;
  Deno.test({
    name: `over gRPC (${io} I/O), a fixed 500 ms per call reads within 2% at p50, p90 and p99`,
    ignore,
    fn: async () => {
      await using target = await startGrpcTarget(["--delay", "500"]);
      const stage = (await runGrpc(target.url, FIXED_LOAD, io)).stages[1];
      assert.deepEqual([stage.counts.completed, stage.counts.ok], [1000, 1000]);
      const truth = { "50": 500, "90": 500, "99": 500 } as Truth;
      assert.deepEqual(offTruth(stage.response, truth, 0.02), []);
    },
  });
  Deno.test({
    name: `over gRPC (${io} I/O), corrected response time matches the stall distribution`,
    ignore,
    fn: async () => {
      await using target = await startGrpcTarget(["--stall", "1000", "--period", "5000"]);
      const stage = (await runGrpc(target.url, STALL_LOAD, io)).stages[1];
      // Nothing dropped during a stall: every call completed, and OK.
      assert.deepEqual([stage.counts.completed, stage.counts.ok], [2000, 2000]);
      assert.deepEqual(offTruth(stage.response, STALL_TRUTH), []);
    },
  });
}
