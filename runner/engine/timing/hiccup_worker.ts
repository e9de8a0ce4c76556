/**
 * The platform-hiccup probe (jHiccup's idea): a thread that does nothing but sleep 1 ms at a time
 * and record how much longer than that each sleep took. Whatever delays it (the OS scheduler, a
 * descheduled vCPU, another process on the core, interrupts) delays the engine too, so its
 * histogram is a floor under every latency the run reports. A sleep that overslept by more than
 * a period is also recorded once for every further period (jHiccup's correction), so the
 * histogram weighs a hiccup by the time it covered. It allocates nothing while it runs.
 *
 * @module
 */
import { createHistogram, toEncodedHistogram } from "../../hdr/mod.ts";
import type { EncodedHistogram } from "../../model/run_result.ts";
import { setTimerSlack } from "./timing_worker.ts";

/** The probe's sleep (ms), its sampling period. */
export const HICCUP_PERIOD_MS = 1;

/**
 * Slots of the shared buffer: the Int32 `stop` (non-zero ends the loop) and the Float64
 * `f64RecordFrom`, the wall-clock time (epoch ms) from which samples count (the end of the
 * warmup; +Infinity until the engine knows it).
 */
export const HICCUP_SLOT = { stop: 0, f64RecordFrom: 1, bytes: 16 } as const;

/** Messages from the probe: ready (with whether its timer slack is 1 ns), then its histogram. */
export type FromHiccupWorker =
  | { type: "ready"; timerSlackSet: boolean }
  | { type: "done"; hiccups: EncodedHistogram };

interface HiccupScope {
  onmessage: ((e: MessageEvent<{ sab: SharedArrayBuffer }>) => void) | null;
  postMessage(message: FromHiccupWorker): void;
  close(): void;
}

if (import.meta.main && "WorkerGlobalScope" in globalThis) {
  const scope = globalThis as unknown as HiccupScope;
  scope.onmessage = (e) => {
    scope.onmessage = null;
    const i32 = new Int32Array(e.data.sab);
    const f64 = new Float64Array(e.data.sab);
    const originMs = performance.timeOrigin;
    scope.postMessage({ type: "ready", timerSlackSet: setTimerSlack(1) });
    const h = createHistogram();
    const periodUs = HICCUP_PERIOD_MS * 1000;
    while (Atomics.load(i32, HICCUP_SLOT.stop) === 0) {
      const beforeMs = performance.now();
      Atomics.wait(i32, HICCUP_SLOT.stop, 0, HICCUP_PERIOD_MS);
      const overUs = Math.round((performance.now() - beforeMs) * 1000) - periodUs;
      if (Atomics.load(i32, HICCUP_SLOT.stop) !== 0) break; // woken early to stop
      if (originMs + beforeMs < f64[HICCUP_SLOT.f64RecordFrom]) continue; // still warming up
      const us = overUs > 0 ? overUs : 0;
      h.recordValue(us);
      for (let missing = us - periodUs; missing > 0; missing -= periodUs) h.recordValue(missing);
    }
    scope.postMessage({ type: "done", hiccups: toEncodedHistogram(h) });
    scope.close();
  };
}
