/**
 * The Worker that encodes closed intervals for worker_interval_store.ts: it receives raw intervals
 * and posts each back encoded, in order. It first lowers its own thread to Linux's SCHED_IDLE policy (through
 * libc's `sched_setscheduler`, where FFI is allowed), so that on a core shared with the engine
 * thread it runs only while the engine thread has nothing to do.
 *
 * @module
 */
import type { IntervalResult } from "../model/run_result.ts";
import { encodeRawInterval, type RawInterval } from "./raw_interval.ts";

/**
 * Messages to the encoder worker: first, on the worker itself, the port the store talks over;
 * then, on that port, each raw interval to encode.
 */
export type ToEncoder = { type: "port"; port: MessagePort } | { type: "add"; raw: RawInterval };

/**
 * Messages from the encoder worker: ready (on the worker), and each interval encoded, in the order
 * added (on the port).
 */
export type FromEncoder =
  | { type: "ready"; idlePriority: boolean }
  | { type: "encoded"; interval: IntervalResult }
  | { type: "failed"; message: string };

const SCHED_IDLE = 5;

/**
 * Puts the calling thread under SCHED_IDLE; false where that is not possible (no FFI permission,
 * no glibc, not Linux).
 */
export function lowerToIdlePriority(): boolean {
  try {
    const libc = Deno.dlopen("libc.so.6", {
      sched_setscheduler: { parameters: ["i32", "i32", "buffer"], result: "i32" },
    });
    try {
      // pid 0: the calling thread; struct sched_param { int sched_priority } = 0.
      return libc.symbols.sched_setscheduler(0, SCHED_IDLE, new Int32Array(1)) === 0;
    } finally {
      libc.close();
    }
  } catch {
    return false;
  }
}

interface EncoderScope {
  onmessage: ((e: MessageEvent<ToEncoder>) => void) | null;
  postMessage(message: FromEncoder): void;
}

if (import.meta.main && "WorkerGlobalScope" in globalThis) {
  const scope = globalThis as unknown as EncoderScope;
  scope.onmessage = (e) => {
    if (e.data.type !== "port") return;
    const port = e.data.port;
    scope.onmessage = null;
    port.onmessage = (m: MessageEvent<ToEncoder>) => {
      if (m.data.type !== "add") return;
      try {
        port.postMessage({ type: "encoded", interval: encodeRawInterval(m.data.raw) });
      } catch (error) {
        port.postMessage({ type: "failed", message: String(error) });
      }
    };
    scope.postMessage({ type: "ready", idlePriority: lowerToIdlePriority() });
  };
}
