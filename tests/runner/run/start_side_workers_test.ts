import assert from "node:assert/strict";
import { attachSideWorkers, startSideWorkers } from "../../../runner/run/start_side_workers.ts";
import type { IntervalEncoder } from "../../../runner/recorder/worker_interval_store.ts";
import type { HiccupProbe } from "../../../runner/engine/timing/mod.ts";

/** An encoder and a probe that start when told to, and note being closed. */
function doubles(log: string[]) {
  let encoderStarted = (_idle: boolean) => {};
  let encoderFailed = (_e: Error) => {};
  let probeStarted = () => {};
  let probeFailed = (_e: Error) => {};
  const channel = new MessageChannel();
  const encoder: IntervalEncoder = {
    port: channel.port2,
    ready: new Promise((resolve, reject) => {
      encoderStarted = resolve;
      encoderFailed = reject;
    }),
    close: () => {
      log.push("encoder closed");
      return Promise.resolve();
    },
  };
  const probe: HiccupProbe = {
    sab: new SharedArrayBuffer(16),
    ready: new Promise((resolve, reject) => {
      probeStarted = resolve;
      probeFailed = reject;
    }),
    close: () => log.push("probe closed"),
  };
  const starters = {
    encoder: () => (log.push("encoder starting"), encoder),
    probe: () => (log.push("probe starting"), probe),
  };
  const done = () => {
    channel.port1.close();
    channel.port2.close();
  };
  return {
    starters,
    encoder,
    probe,
    encoderStarted,
    encoderFailed,
    probeStarted,
    probeFailed,
    done,
  };
}

Deno.test("the encoder and the probe start together, and their links are there at once", async () => {
  const log: string[] = [];
  const d = doubles(log);
  const side = startSideWorkers(d.starters);
  // Both were asked to start before either answered; the links need no answer.
  assert.deepEqual(log, ["encoder starting", "probe starting"]);
  assert.equal(side.links.encoderPort, d.encoder.port);
  assert.equal(side.links.hiccupSab, d.probe.sab);
  let ready = false;
  side.ready.then(() => ready = true);
  d.probeStarted();
  await new Promise((r) => setTimeout(r, 0));
  assert.equal(ready, false, "ready waits for both");
  d.encoderStarted(true);
  await side.ready;
  await side.close();
  assert.deepEqual(log.slice(2), ["probe closed", "encoder closed"]);
  d.done();
});

Deno.test("a side worker that fails to start ends both, and ready rejects with its failure", async () => {
  const log: string[] = [];
  const d = doubles(log);
  const side = startSideWorkers(d.starters);
  d.encoderStarted(true);
  d.probeFailed(new Error("hiccup probe failed: no threads"));
  await assert.rejects(side.ready, /hiccup probe failed: no threads/);
  assert.deepEqual(log.slice(2), ["probe closed", "encoder closed"]);
  d.done();
});

Deno.test("the real encoder and probe answer the engine that attaches to them", async () => {
  const side = startSideWorkers();
  await side.ready;
  const { store, hiccups } = attachSideWorkers(side.links);
  assert.deepEqual(store.all(), []);
  assert.equal((await hiccups.stop()).count, 0);
  store.close();
  await side.close();
});
