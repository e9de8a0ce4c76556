/**
 * Starts and stops the platform-hiccup probe (hiccup_worker.ts) for one run.
 *
 * @module
 */
import { createHistogram, toEncodedHistogram } from "../../hdr/mod.ts";
import type { EncodedHistogram } from "../../model/run_result.ts";
import { type FromHiccupWorker, HICCUP_SLOT } from "./hiccup_worker.ts";

/** A running probe. */
export interface HiccupMeter {
  /** Samples count from this wall-clock time (epoch ms, fractional): the end of the warmup. */
  recordFrom(epochMs: number): void;
  /** Stops the probe and returns its histogram (empty if the probe did not answer in 1 s). */
  stop(): Promise<EncodedHistogram>;
}

/**
 * Starts the probe thread; resolves once it runs.
 */
export async function startHiccupMeter(): Promise<HiccupMeter> {
  const sab = new SharedArrayBuffer(HICCUP_SLOT.bytes);
  const i32 = new Int32Array(sab);
  const f64 = new Float64Array(sab);
  f64[HICCUP_SLOT.f64RecordFrom] = Infinity;
  const worker = new Worker(new URL("./hiccup_worker.ts", import.meta.url).href, {
    type: "module",
  });
  let onDone: (h: EncodedHistogram) => void = () => {};
  const done = new Promise<EncodedHistogram>((resolve) => onDone = resolve);
  await new Promise<void>((resolve, reject) => {
    worker.onmessage = (e: MessageEvent<FromHiccupWorker>) => {
      if (e.data.type === "ready") resolve();
      else onDone(e.data.hiccups);
    };
    worker.onerror = (e) => {
      e.preventDefault();
      reject(new Error(`hiccup probe failed: ${e.message}`));
    };
    worker.postMessage({ sab });
  }).catch((error) => {
    worker.terminate();
    throw error;
  });
  return {
    recordFrom: (epochMs) => {
      f64[HICCUP_SLOT.f64RecordFrom] = epochMs;
    },
    async stop() {
      Atomics.store(i32, HICCUP_SLOT.stop, 1);
      Atomics.notify(i32, HICCUP_SLOT.stop);
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timeout = new Promise<EncodedHistogram>((resolve) => {
        timer = setTimeout(() => resolve(toEncodedHistogram(createHistogram())), 1000);
      });
      try {
        return await Promise.race([done, timeout]);
      } finally {
        clearTimeout(timer);
        worker.terminate();
      }
    },
  };
}

// Never called: puts the worker's module into this module's graph, so `deno install` from a URL
// caches it with the rest instead of leaving it to be fetched when the worker starts.
const _workerInGraph = () => import("./hiccup_worker.ts");
