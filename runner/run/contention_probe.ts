/**
 * The contention probe of one run, as the main thread holds it: its Worker
 * (contention_worker.ts: why a thread of its own) started beside the engines, told the schedule's
 * time zero, and stopped once they are done, handing back what it sampled. It never holds a run
 * up or fails it: a probe that does not start in time, fails, or does not answer its stop is
 * left out of the result, which then carries no contention figures.
 *
 * @module
 */
import {
  type ContentionRecord,
  type FromContentionWorker,
  PROBE_SLOT,
  type ToContentionWorker,
} from "./contention_worker.ts";

export type { ContentionRecord } from "./contention_worker.ts";

/** How long the run waits for the probe's first sample before it starts anyway (ms). */
const READY_WAIT_MS = 2_000;
/** How long a stopped probe may take to hand back its samples (ms). */
const STOP_WAIT_MS = 1_000;

/** A running probe. */
export interface ContentionProbe {
  /** Resolves once the probe has taken its first sample, or has failed; never rejects. */
  readonly ready: Promise<void>;
  /** The schedule's time zero (epoch ms): samples fall on its interval edges from then on. */
  alignTo(startAtEpochMs: number): void;
  /** A last sample, then the record; undefined when the probe did not run. */
  stop(): Promise<ContentionRecord | undefined>;
  /** Ends the probe's thread (after `stop`, or to abandon it). */
  close(): void;
}

/**
 * Starts the probe for the service at `url` (started by tailgate in group `pgid`, when it was);
 * undefined where the counters are Linux's and this is not Linux.
 */
export function startContentionProbe(
  target: { url: string; pgid?: number },
): ContentionProbe | undefined {
  if (Deno.build.os !== "linux") return undefined;
  const sab = new SharedArrayBuffer(PROBE_SLOT.bytes);
  const i32 = new Int32Array(sab);
  new Float64Array(sab)[PROBE_SLOT.f64StartAt] = NaN;
  const wake = () => Atomics.notify(i32, PROBE_SLOT.stop);
  const worker = new Worker(new URL("./contention_worker.ts", import.meta.url).href, {
    type: "module",
  });
  let failed = false;
  let readyTimer: ReturnType<typeof setTimeout> | undefined;
  let onReady: () => void = () => {};
  let onDone: (record: ContentionRecord | undefined) => void = () => {};
  const ready = new Promise<void>((resolve) => {
    onReady = () => {
      clearTimeout(readyTimer);
      resolve();
    };
    readyTimer = setTimeout(resolve, READY_WAIT_MS);
  });
  worker.onmessage = (e: MessageEvent<FromContentionWorker>) => {
    if (e.data.type === "ready") onReady();
    else if (e.data.type === "done") onDone(e.data.record);
  };
  worker.onerror = (e) => {
    e.preventDefault();
    failed = true;
    onReady();
    onDone(undefined);
  };
  worker.postMessage(
    {
      sab,
      url: target.url,
      ...(target.pgid === undefined ? {} : { pgid: target.pgid }),
    } satisfies ToContentionWorker,
  );
  return {
    ready,
    alignTo(startAtEpochMs) {
      new Float64Array(sab)[PROBE_SLOT.f64StartAt] = startAtEpochMs;
      wake();
    },
    stop() {
      if (failed) return Promise.resolve(undefined);
      let stopTimer: ReturnType<typeof setTimeout> | undefined;
      const done = new Promise<ContentionRecord | undefined>((resolve) => {
        onDone = (record) => {
          clearTimeout(stopTimer);
          resolve(record);
        };
        stopTimer = setTimeout(() => resolve(undefined), STOP_WAIT_MS);
      });
      Atomics.store(i32, PROBE_SLOT.stop, 1);
      wake();
      return done;
    },
    close() {
      onReady();
      // A thread blocked in Atomics.wait does not end on terminate(): it is told to stop first.
      Atomics.store(i32, PROBE_SLOT.stop, 1);
      wake();
      worker.terminate();
    },
  };
}

// Never called: puts the worker's module into this module's graph, so `deno install` from a URL
// caches it with the rest instead of leaving it to be fetched when the worker starts.
const _workerInGraph = () => import("./contention_worker.ts");
