/**
 * The low priority of the helper threads that must never hold up the threads that keep time: the
 * interval encoder (runner/recorder/interval_encoder_worker.ts) and the contention probe
 * (runner/run/contention_worker.ts). SCHED_BATCH: a woken batch thread never preempts the one
 * running, so the engine's and the hiccup probe's wakes are not delayed by it; nice 10: beside a
 * nice-0 thread that wants the core it gets about a tenth of it (weights 110 and 1024).
 *
 * @module
 */

const SCHED_BATCH = 3;
const PRIO_PROCESS = 0;
/**
 * The helpers' nice value. For the encoder, at 19 (about 1.5% of a contended core) its exit after
 * a SIGTERM'd run beside a busy loop on each core took 7-22 s, at 10 8.7-9.1 s, at 0 6.6-7.4 s
 * (the run's own wrap-up).
 */
const LOW_NICE = 10;

/**
 * Puts the calling thread, not its process, under SCHED_BATCH at nice 10: `lowered` is false where
 * that is not possible (no FFI permission, no glibc, not Linux); `tid` is the thread's id, where
 * known.
 */
export function lowerThreadPriority(): { lowered: boolean; tid?: number } {
  try {
    const libc = Deno.dlopen("libc.so.6", {
      sched_setscheduler: { parameters: ["i32", "i32", "buffer"], result: "i32" },
      setpriority: { parameters: ["i32", "u32", "i32"], result: "i32" },
      gettid: { parameters: [], result: "i32" },
    });
    try {
      // pid and who 0: the calling thread (Linux keeps the policy and the nice value per thread);
      // struct sched_param { int sched_priority } = 0.
      const batch = libc.symbols.sched_setscheduler(0, SCHED_BATCH, new Int32Array(1)) === 0;
      const nice = libc.symbols.setpriority(PRIO_PROCESS, 0, LOW_NICE) === 0;
      return { lowered: batch && nice, tid: libc.symbols.gettid() };
    } finally {
      libc.close();
    }
  } catch {
    return { lowered: false }; // no FFI, no glibc 2.30 (gettid) or not Linux
  }
}
