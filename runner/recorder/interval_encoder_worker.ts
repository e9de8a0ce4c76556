/**
 * The Worker that encodes closed intervals for worker_interval_store.ts: it receives raw intervals
 * and encodes each, in order. With a spill file it appends each encoded interval there as a line of
 * JSON and posts back only its length and p99, so a long run's record lives on disk, not in the
 * engine's heap (where it grew by about 1 MB a minute at 20k/s); without one, or once a write
 * fails, it posts the encoded interval itself.
 *
 * It first lowers its own thread, and only it, to SCHED_BATCH at nice 10 (`lowerThreadPriority`,
 * runner/engine/low_priority.ts), so that on a core shared with the engine thread it takes
 * about a tenth of the core while both want it, and the engine's wakes preempt it.
 *
 * Not SCHED_IDLE, which it was: a SCHED_IDLE thread runs only on an idle core, so beside a busy
 * neighbour on every core it never ran. The run's end then waited for it in vain, and the process
 * could not end until the thread ran to exit: a SIGTERM'd run beside a busy loop on each core took
 * 28-32 s to exit, 1.6 s on a quiet machine. An unprivileged thread cannot leave SCHED_IDLE again
 * (RLIMIT_NICE), so it cannot be raised when the run is over either. And a thread must run to end:
 * the process's last thread to exit frees its memory, so the thread reports its id and its owner
 * waits for it to end before the process exits (`IntervalEncoder.close`, bounded).
 *
 * @module
 */
import type { IntervalResult } from "../model/mod.ts";
import { createEncodeScratch, encodeRawInterval, type RawInterval } from "./raw_interval.ts";
// Through a side door (tests/layers_test.ts, SIDE_DOORS): engine/mod.ts would load the whole
// engine into the encoder's thread.
import { lowerThreadPriority } from "../engine/low_priority.ts";

/**
 * Messages to the encoder worker: first, on the worker itself, the port the store talks over and
 * the spill file its owner made, if any; then, on that port, each raw interval to encode.
 */
export type ToEncoder =
  | { type: "port"; port: MessagePort; spillPath?: string }
  | { type: "add"; raw: RawInterval };

/**
 * Messages from the encoder worker: ready (on the worker); on the port, `spilling` before any
 * interval when it writes to a spill file, then each interval in the order added, `spilled` (its
 * line is the file's next `bytes` bytes) or `encoded` (posted whole).
 */
export type FromEncoder =
  | { type: "ready"; lowPriority: boolean; tid?: number }
  | { type: "spilling"; path: string }
  | { type: "spilled"; bytes: number; p99Us: number }
  | { type: "encoded"; interval: IntervalResult }
  | { type: "failed"; message: string };

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
    let spill = openSpill(e.data.spillPath);
    const scratch = createEncodeScratch();
    if (spill) port.postMessage({ type: "spilling", path: e.data.spillPath! });
    port.onmessage = (m: MessageEvent<ToEncoder>) => {
      if (m.data.type !== "add") return;
      try {
        const interval = encodeRawInterval(m.data.raw, scratch);
        if (spill) {
          const line = new TextEncoder().encode(JSON.stringify(interval) + "\n");
          try {
            writeAll(spill, line);
            const p99Us = interval.response.percentilesUs["99"];
            port.postMessage({ type: "spilled", bytes: line.length, p99Us });
            return;
          } catch {
            // A torn line lies past the bytes acknowledged, where the store never reads.
            spill.close();
            spill = undefined;
          }
        }
        port.postMessage({ type: "encoded", interval });
      } catch (error) {
        port.postMessage({ type: "failed", message: String(error) });
      }
    };
    const { lowered, tid } = lowerThreadPriority();
    scope.postMessage({ type: "ready", lowPriority: lowered, ...(tid ? { tid } : {}) });
  };
}

function openSpill(path: string | undefined): Deno.FsFile | undefined {
  if (path === undefined) return undefined;
  try {
    return Deno.openSync(path, { write: true, append: true });
  } catch {
    return undefined; // posted whole instead
  }
}

function writeAll(file: Deno.FsFile, bytes: Uint8Array): void {
  for (let written = 0; written < bytes.length;) {
    written += file.writeSync(bytes.subarray(written));
  }
}
