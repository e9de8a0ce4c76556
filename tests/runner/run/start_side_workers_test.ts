import assert from "node:assert/strict";
import { startSideWorkers } from "../../../runner/run/start_side_workers.ts";
import type { IntervalStore } from "../../../runner/recorder/interval_store.ts";
import type { HiccupMeter } from "../../../runner/engine/timing/mod.ts";

/** A store and a meter that only note what was done to them. */
function doubles(log: string[]): { store: IntervalStore; hiccups: HiccupMeter } {
  const store = {
    add() {},
    all: () => [],
    latestP99Us: () => undefined,
    flush: () => Promise.resolve(),
    close: () => log.push("store closed"),
  } as unknown as IntervalStore;
  const hiccups = {
    recordFrom() {},
    stop: () => {
      log.push("hiccups stopped");
      return Promise.resolve({} as never);
    },
  } as unknown as HiccupMeter;
  return { store, hiccups };
}

Deno.test("the encoder and the hiccup probe start together, not one after the other", async () => {
  const log: string[] = [];
  const { store, hiccups } = doubles(log);
  let releaseStore = () => {};
  const storeStarted = new Promise<void>((r) => releaseStore = r);
  const started = startSideWorkers({
    store: async () => {
      log.push("store starting");
      await storeStarted;
      return store;
    },
    hiccups: () => {
      log.push("hiccups starting");
      return Promise.resolve(hiccups);
    },
  });
  await Promise.resolve();
  // The probe was asked to start while the encoder had not yet answered.
  assert.deepEqual(log, ["store starting", "hiccups starting"]);
  releaseStore();
  assert.deepEqual(await started, [store, hiccups]);
});

Deno.test("a side worker that fails to start stops the other, and the failure is thrown", async () => {
  const log: string[] = [];
  const { store, hiccups } = doubles(log);
  await assert.rejects(
    startSideWorkers({
      store: () => Promise.resolve(store),
      hiccups: () => Promise.reject(new Error("hiccup probe failed: no threads")),
    }),
    /hiccup probe failed: no threads/,
  );
  assert.deepEqual(log, ["store closed"]);
  await assert.rejects(
    startSideWorkers({
      store: () => Promise.reject(new Error("interval encoder worker failed to start")),
      hiccups: () => Promise.resolve(hiccups),
    }),
    /interval encoder worker failed to start/,
  );
  assert.deepEqual(log, ["store closed", "hiccups stopped"]);
});

Deno.test("the real encoder and probe start, answer and stop", async () => {
  const [store, hiccups] = await startSideWorkers();
  assert.deepEqual(store.all(), []);
  assert.equal((await hiccups.stop()).count, 0);
  store.close();
});
