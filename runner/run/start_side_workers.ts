/**
 * The two Workers a real run keeps beside its engine thread, the interval encoder and the
 * platform-hiccup probe, started together. A Worker started from a Worker (the engine runs in
 * one) takes about half a second to answer under Deno 2.9 even when it loads nothing, most of it
 * idle; one after the other, the two held the first request back twice that (docs/engine.md,
 * "Where the CPU goes"). If either fails to start, the other is stopped and the failure thrown.
 *
 * @module
 */
import type { IntervalStore } from "../recorder/interval_store.ts";
import { startWorkerIntervalStore } from "../recorder/worker_interval_store.ts";
import { type HiccupMeter, startHiccupMeter } from "../engine/timing/mod.ts";

/** How each side Worker is started (the real ones unless a test says otherwise). */
export interface SideWorkerStarters {
  store: () => Promise<IntervalStore>;
  hiccups: () => Promise<HiccupMeter>;
}

const REAL: SideWorkerStarters = { store: startWorkerIntervalStore, hiccups: startHiccupMeter };

/**
 * Starts the encoder and the hiccup probe at once; resolves when both run.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { startSideWorkers } from "./start_side_workers.ts";
 * const [store, hiccups] = await startSideWorkers();
 * assert.deepEqual(store.all(), []);
 * assert.equal((await hiccups.stop()).count, 0); // nothing recorded before recordFrom()
 * store.close();
 * ```
 */
export async function startSideWorkers(
  starters: SideWorkerStarters = REAL,
): Promise<[IntervalStore, HiccupMeter]> {
  const [store, hiccups] = await Promise.allSettled([starters.store(), starters.hiccups()]);
  if (store.status === "fulfilled" && hiccups.status === "fulfilled") {
    return [store.value, hiccups.value];
  }
  if (store.status === "fulfilled") store.value.close();
  if (hiccups.status === "fulfilled") await hiccups.value.stop();
  throw store.status === "rejected" ? store.reason : (hiccups as PromiseRejectedResult).reason;
}
