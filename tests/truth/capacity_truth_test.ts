/**
 * Truth test for the capacity target: 2 servers of 10 ms each behind one FIFO queue serve exactly
 * 200 requests a second. Below that every answer takes the service time; above it, at one request
 * per 2.5 ms, one server takes the even requests back to back and the other the odd ones, so request
 * k's corrected response time is 10 + 2.5·(k − k mod 2) ms: a queue, and every latency, growing by
 * 1 s per second of overload.
 */
import assert from "node:assert/strict";
import { startTargetProcess } from "../_helpers/target_process.ts";
import { offTruth, runAgainst } from "../_helpers/truth.ts";

const TARGET = ["--mode", "capacity", "--servers", "2", "--delay", "10ms"];

Deno.test("a capacity target below its capacity answers every request in the service time", async () => {
  // 20 servers of 500 ms (40/s) at 20/s: 500 ms, so that 5% (25 ms) covers the VM's one-off stalls.
  await using target = await startTargetProcess([
    ...["--mode", "capacity", "--servers", "20", "--delay", "500ms"],
  ]);
  const recorded = await runAgainst(target.url, { rate: "20/s", duration: "3s", connections: 16 });
  const stage = recorded.stages[1];
  assert.equal(stage.counts.completed, 60);
  assert.deepEqual(offTruth(stage.response, { "50": 500, "90": 500, "99": 500, max: 500 }), []);
});

Deno.test("a capacity target above its capacity queues: corrected latencies grow as the queue does", async () => {
  await using target = await startTargetProcess(TARGET);
  // 400/s: a 1 s warmup (requests 0..399), then requests 400..1199 measured.
  const recorded = await runAgainst(target.url, {
    rate: "400/s",
    duration: "2s",
    connections: 64,
    maxConnections: 1500,
  });
  const stage = recorded.stages[1];
  assert.equal(stage.counts.completed, 800);
  const truthMs = (k: number) => 10 + 2.5 * (k - (k % 2));
  // The measured stage's quantiles: request 400 + q·800.
  const at = (q: number) => truthMs(400 + Math.ceil(q * 800) - 1);
  assert.deepEqual(
    offTruth(stage.response, { "50": at(0.5), "90": at(0.9), "99": at(0.99), max: at(1) }),
    [],
  );
  // The service time (from the write) shows the queue as well: it is inside the server.
  assert.ok(stage.service.percentilesUs["50"] > 500_000, `${stage.service.percentilesUs["50"]}`);
});
