/**
 * The platform-hiccup probe (jHiccup's idea): a thread that does nothing but sleep 1 ms at a time
 * and record how much longer than that each sleep took. Whatever delays it (the OS scheduler, a
 * descheduled vCPU, another process on the core, interrupts) delays the engine too, so its
 * histogram is a floor under every latency the run reports. A sleep that overslept by more than
 * a period is also recorded once for every further period (jHiccup's correction), so the
 * histogram weighs a hiccup by the time it covered. It allocates nothing while it runs.
 *
 * The probe counts straight into a shared buffer laid out as tailgate's HdrHistogram counts array
 * (same buckets, see histogram_config.ts), so it loads no histogram library (a Worker's start-up
 * is its modules) and whoever holds the buffer reads the histogram once the probe is done, on
 * any thread.
 *
 * @module
 */
// Through a side door (tests/layers_test.ts, SIDE_DOORS): hdr/mod.ts would load the histogram
// library into the probe's thread (about 50 ms of CPU a run) for the bucket layout alone.
import { bucketGeometry, countsIndexOf, HISTOGRAM_CONFIG } from "../../hdr/histogram_config.ts";
import { setTimerSlack } from "./timing_worker.ts";
import { setShortSlice } from "./short_slice.ts";

/** The probe's sleep (ms), its sampling period. */
export const HICCUP_PERIOD_MS = 1;

const GEOMETRY = bucketGeometry(HISTOGRAM_CONFIG);

/**
 * The shared buffer: Int32 slots `stop` (non-zero ends the loop) and `done` (set once the probe
 * has stopped and its counts are final), the Float64 slot `f64RecordFrom` (the wall-clock time,
 * epoch ms, from which samples count: the end of the warmup; +Infinity until the engine knows
 * it), then `countsLength` Float64 counts from byte `countsOffset`, indexed like the
 * HdrHistogram counts array of {@linkcode HISTOGRAM_CONFIG}.
 */
export const HICCUP_SLOT = {
  stop: 0,
  done: 1,
  f64RecordFrom: 1,
  countsOffset: 16,
  countsLength: GEOMETRY.countsLength,
  bytes: 16 + 8 * GEOMETRY.countsLength,
} as const;

/** Messages from the probe: ready, with whether its timer slack is 1 ns. */
export type FromHiccupWorker = { type: "ready"; timerSlackSet: boolean };

interface HiccupScope {
  onmessage: ((e: MessageEvent<{ sab: SharedArrayBuffer }>) => void) | null;
  postMessage(message: FromHiccupWorker): void;
  close(): void;
}

/**
 * Counts one sleep that overslept by `overUs` (0 if it did not) into `counts`, the probe's shared
 * counts array, with jHiccup's correction: once more for every further period it covered.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { HICCUP_SLOT, recordOversleep } from "./hiccup_worker.ts";
 * const counts = new Float64Array(HICCUP_SLOT.countsLength);
 * recordOversleep(counts, 2500); // 2.5 ms late: 2500, 1500 and 500 us
 * assert.deepEqual([counts[500], counts[1500], counts.reduce((a, b) => a + b)], [1, 1, 3]);
 * ```
 */
export function recordOversleep(counts: Float64Array, overUs: number): void {
  const periodUs = HICCUP_PERIOD_MS * 1000;
  const last = HICCUP_SLOT.countsLength - 1;
  const us = overUs > 0 ? overUs : 0;
  counts[Math.min(countsIndexOf(GEOMETRY, us), last)]++;
  for (let missing = us - periodUs; missing > 0; missing -= periodUs) {
    counts[Math.min(countsIndexOf(GEOMETRY, missing), last)]++;
  }
}

/** The probe's loop, on the calling thread, until `stop` is set; then sets `done`. */
export function runHiccupProbe(sab: SharedArrayBuffer): void {
  const i32 = new Int32Array(sab);
  const f64 = new Float64Array(sab);
  const counts = new Float64Array(sab, HICCUP_SLOT.countsOffset, HICCUP_SLOT.countsLength);
  const originMs = performance.timeOrigin;
  const periodUs = HICCUP_PERIOD_MS * 1000;
  while (Atomics.load(i32, HICCUP_SLOT.stop) === 0) {
    const beforeMs = performance.now();
    Atomics.wait(i32, HICCUP_SLOT.stop, 0, HICCUP_PERIOD_MS);
    const overUs = Math.round((performance.now() - beforeMs) * 1000) - periodUs;
    if (Atomics.load(i32, HICCUP_SLOT.stop) !== 0) break; // woken early to stop
    if (originMs + beforeMs < f64[HICCUP_SLOT.f64RecordFrom]) continue; // still warming up
    recordOversleep(counts, overUs);
  }
  Atomics.store(i32, HICCUP_SLOT.done, 1);
  Atomics.notify(i32, HICCUP_SLOT.done);
}

if (import.meta.main && "WorkerGlobalScope" in globalThis) {
  const scope = globalThis as unknown as HiccupScope;
  scope.onmessage = (e) => {
    scope.onmessage = null;
    const timerSlackSet = setTimerSlack(1);
    // The engine's threads wake with the short slice: so does the probe, or it would count as
    // the platform's the waits behind the slice that the engine does not have.
    setShortSlice();
    scope.postMessage({ type: "ready", timerSlackSet });
    runHiccupProbe(e.data.sab);
    scope.close();
  };
}
