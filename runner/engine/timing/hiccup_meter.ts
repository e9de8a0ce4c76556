/**
 * The platform-hiccup probe (hiccup_worker.ts) of one run: started by one thread, read by
 * another. The thread that starts the probe owns its Worker; the engine thread, which may be
 * another Worker, reads the probe through its shared buffer alone. A Worker started from a Worker
 * takes about half a second to answer under Deno 2.9, so the engine's side Workers are started
 * from the main thread (docs/engine.md, "Where the CPU goes").
 *
 * @module
 */
import { createHistogram, toEncodedHistogram } from "../../hdr/mod.ts";
import type { EncodedHistogram } from "../../model/mod.ts";
import { type FromHiccupWorker, HICCUP_SLOT } from "./hiccup_worker.ts";

/** How long `stop` waits for the probe to finish before it returns an empty histogram. */
const STOP_WAIT_MS = 1000;

/** A probe thread, as the thread that started it holds it. */
export interface HiccupProbe {
  /** The probe's shared buffer: what {@linkcode hiccupMeterOn} reads it through, on any thread. */
  readonly sab: SharedArrayBuffer;
  /** Resolves once the probe runs; rejects (and ends it) if it fails to start. */
  readonly ready: Promise<void>;
  /** Ends the probe's thread (after the meter's `stop`, or to abandon it). */
  close(): void;
}

/** A running probe, as the engine reads it. */
export interface HiccupMeter {
  /** Samples count from this wall-clock time (epoch ms, fractional): the end of the warmup. */
  recordFrom(epochMs: number): void;
  /** Stops the probe and returns its histogram (empty if the probe did not finish in 1 s). */
  stop(): Promise<EncodedHistogram>;
}

/** Starts the probe thread; see {@linkcode HiccupProbe}. */
export function startHiccupProbe(): HiccupProbe {
  const sab = new SharedArrayBuffer(HICCUP_SLOT.bytes);
  new Float64Array(sab)[HICCUP_SLOT.f64RecordFrom] = Infinity;
  const worker = new Worker(new URL("./hiccup_worker.ts", import.meta.url).href, {
    type: "module",
  });
  const ready = new Promise<void>((resolve, reject) => {
    worker.onmessage = (e: MessageEvent<FromHiccupWorker>) => {
      if (e.data.type === "ready") resolve();
    };
    worker.onerror = (e) => {
      e.preventDefault();
      worker.terminate();
      reject(new Error(`hiccup probe failed: ${e.message}`));
    };
  });
  worker.postMessage({ sab });
  return { sab, ready, close: () => worker.terminate() };
}

/**
 * The meter of the probe whose buffer is `sab`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { hiccupMeterOn, startHiccupProbe } from "./hiccup_meter.ts";
 * const probe = startHiccupProbe();
 * await probe.ready;
 * const meter = hiccupMeterOn(probe.sab);
 * assert.equal((await meter.stop()).count, 0); // nothing recorded before recordFrom()
 * probe.close();
 * ```
 */
export function hiccupMeterOn(sab: SharedArrayBuffer): HiccupMeter {
  const i32 = new Int32Array(sab);
  const f64 = new Float64Array(sab);
  return {
    recordFrom: (epochMs) => {
      f64[HICCUP_SLOT.f64RecordFrom] = epochMs;
    },
    async stop() {
      Atomics.store(i32, HICCUP_SLOT.stop, 1);
      Atomics.notify(i32, HICCUP_SLOT.stop);
      // Polled, not Atomics.waitAsync: under Deno 2.9 its promise neither keeps the event loop
      // alive nor settles promptly when another thread notifies.
      const giveUpMs = performance.now() + STOP_WAIT_MS;
      while (Atomics.load(i32, HICCUP_SLOT.done) === 0 && performance.now() < giveUpMs) {
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
      const h = createHistogram();
      if (Atomics.load(i32, HICCUP_SLOT.done) === 1) h.addSparse(sparseCounts(sab));
      return toEncodedHistogram(h);
    },
  };
}

/** The probe's non-zero counts, as a histogram's `addSparse` takes them. */
function sparseCounts(sab: SharedArrayBuffer): { indexes: Uint32Array; counts: Float64Array } {
  const all = new Float64Array(sab, HICCUP_SLOT.countsOffset, HICCUP_SLOT.countsLength);
  const indexes: number[] = [];
  for (let i = 0; i < all.length; i++) if (all[i] > 0) indexes.push(i);
  return {
    indexes: Uint32Array.from(indexes),
    counts: Float64Array.from(indexes, (i) => all[i]),
  };
}

// Never called: puts the worker's module into this module's graph, so `deno install` from a URL
// caches it with the rest instead of leaving it to be fetched when the worker starts.
const _workerInGraph = () => import("./hiccup_worker.ts");
