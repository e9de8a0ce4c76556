/**
 * The Linux counters of CPU contention, read from their files' text: the machine's CPU pressure
 * (`/proc/pressure/cpu`), each CPU's steal (`/proc/stat`) and one thread's wait in the run queue
 * (`/proc/PID/task/TID/schedstat`). Each counter only grows, so the growth between two readings is
 * the contention between them. Pure: the files are read by counter_sampler.ts.
 *
 * @module
 */

/**
 * One reading of the counters, at `atEpochMs` (wall-clock epoch ms, fractional:
 * `performance.timeOrigin + performance.now()`, the clock the engine's schedule runs on). A
 * counter that could not be read is absent.
 */
export interface ContentionSample {
  atEpochMs: number;
  /** CPU pressure, `some` line's `total`: µs in which a runnable task of the machine waited. */
  pressureUs?: number;
  /** Each CPU's steal, in clock ticks (USER_HZ), in CPU order. */
  stealTicks?: number[];
  /**
   * The followed threads' run-queue wait (ns) since each was first seen: their growth, summed,
   * so a thread that ends takes none of it away.
   */
  serviceWaitNs?: number;
}

/**
 * The `total=` of the `some` line of `/proc/pressure/cpu` (µs); undefined when there is none.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { pressureTotalUs } from "./proc_counters.ts";
 * const text = "some avg10=0.75 avg60=5.83 avg300=9.57 total=103472245\n" +
 *   "full avg10=0.00 avg60=0.00 avg300=0.00 total=0\n";
 * assert.equal(pressureTotalUs(text), 103472245);
 * assert.equal(pressureTotalUs(""), undefined);
 * ```
 */
export function pressureTotalUs(text: string): number | undefined {
  const total = /^some\b.*\btotal=(\d+)/m.exec(text)?.[1];
  return total === undefined ? undefined : Number(total);
}

/**
 * Each CPU's steal from `/proc/stat`: the 8th value of every `cpuN` line (the `cpu` line, their
 * sum, is left out), in clock ticks; undefined when no line has one (a kernel before steal).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { stealTicksPerCpu } from "./proc_counters.ts";
 * const text = "cpu  62130 11 11791 57556 669 0 693 108 0 0\n" +
 *   "cpu0 31050 0 5141 29932 175 0 187 54 0 0\n" +
 *   "cpu1 31080 11 6650 27624 493 0 506 54 0 0\nintr 123\n";
 * assert.deepEqual(stealTicksPerCpu(text), [54, 54]);
 * assert.equal(stealTicksPerCpu("cpu0 1 2 3\n"), undefined);
 * ```
 */
export function stealTicksPerCpu(text: string): number[] | undefined {
  const steal: number[] = [];
  for (const line of text.split("\n")) {
    if (!line.startsWith("cpu")) {
      if (steal.length > 0) break; // the cpu lines come first, together
      continue;
    }
    const fields = line.split(/\s+/);
    if (!/^cpu\d+$/.test(fields[0])) continue;
    const ticks = Number(fields[8]);
    if (fields[8] === undefined || !Number.isFinite(ticks)) return undefined;
    steal.push(ticks);
  }
  return steal.length > 0 ? steal : undefined;
}

/**
 * A thread's run-queue wait (ns), the second field of its `schedstat`; undefined when the text
 * holds no such number.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { schedstatWaitNs } from "./proc_counters.ts";
 * assert.equal(schedstatWaitNs("182622270 20422722 368\n"), 20422722);
 * assert.equal(schedstatWaitNs("182622270\n"), undefined);
 * ```
 */
export function schedstatWaitNs(text: string): number | undefined {
  const field = text.trim().split(" ")[1];
  if (field === undefined || !/^\d+$/.test(field)) return undefined;
  return Number(field);
}
