/**
 * The short scheduler slice of the threads that keep time: the engine's (set by runEngine, on
 * either I/O path), the timing worker's and the hiccup probe's. Linux's EEVDF scheduler (6.6 and later) lets a thread that wakes run at once
 * only if its virtual deadline is earlier than the running thread's; with the default slice
 * (about 3 ms on the 2-vCPU machine measured) the engine, woken for a send at 1k/s, waited up to
 * 4.5 ms behind other threads of its own process on the same core (V8's helpers, the probe), and
 * its send lag's p99.9 was 3 ms. With a 0.1 ms custom slice (6.12 and later; the smallest the
 * kernel takes) its wakes get the earlier deadline: p99.9 0.84-0.88 ms in the same runs
 * (docs/engine.md, "Where the CPU goes"). No privilege is needed; older kernels refuse it and
 * the thread keeps the default.
 *
 * @module
 */

/** The slice (ns) the time-keeping threads ask for. */
export const SHORT_SLICE_NS = 100_000;

/** Linux x86-64's number of `sched_setattr` (glibc has no wrapper for it). */
const SYS_SCHED_SETATTR = 314;

/**
 * Gives the calling thread the short slice (SCHED_OTHER, nice unchanged); false where that is not
 * possible (not Linux x86-64, no FFI permission, a kernel without custom slices).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { setShortSlice } from "./short_slice.ts";
 * assert.equal(typeof setShortSlice(), "boolean");
 * ```
 */
export function setShortSlice(): boolean {
  if (Deno.build.os !== "linux" || Deno.build.arch !== "x86_64") return false;
  try {
    const libc = Deno.dlopen("libc.so.6", {
      syscall: { parameters: ["i64", "i32", "buffer", "u32"], result: "i64" },
    });
    try {
      // struct sched_attr, version 0 (48 bytes): size, policy (0: SCHED_OTHER), flags, nice,
      // priority, then sched_runtime, which for SCHED_OTHER is the custom slice.
      const attr = new DataView(new ArrayBuffer(48));
      attr.setUint32(0, 48, true);
      attr.setBigUint64(24, BigInt(SHORT_SLICE_NS), true);
      const bytes = new Uint8Array(attr.buffer);
      return libc.symbols.syscall(BigInt(SYS_SCHED_SETATTR), 0, bytes, 0) === 0n;
    } finally {
      libc.close();
    }
  } catch {
    return false;
  }
}
