/**
 * Reads the contention counters (proc_counters.ts) at each call of `sample()`: the machine's CPU
 * pressure and each CPU's steal, and, when it is given the service's processes, the run-queue wait
 * of every thread of them. The files stay open between samples (a seek and a read each, about half
 * the cost of opening them again); the threads are listed again only every few samples, and a
 * thread or process that has gone is dropped without a word. A counter whose file is missing (not
 * Linux, no PSI, a container that hides it) or cannot be read is absent from the samples.
 *
 * The I/O edge of the contention probe; the thread that runs it is chosen in
 * runner/run/contention_worker.ts.
 *
 * @module
 */
import {
  type ContentionSample,
  pressureTotalUs,
  schedstatWaitNs,
  stealTicksPerCpu,
} from "./proc_counters.ts";

/** Options of {@linkcode CounterSampler}. */
export interface CounterSamplerOptions {
  /** The service's processes, asked for when the threads are listed; none: no service wait. */
  pids?: () => readonly number[];
  /** Samples between two listings of the service's threads (default 4). */
  refreshEvery?: number;
  /** Where procfs is mounted (tests point it elsewhere; default `/proc`). */
  procRoot?: string;
  /** Wall-clock epoch ms (default `performance.timeOrigin + performance.now()`). */
  nowEpochMs?: () => number;
}

/** A followed thread: its open `schedstat` and the wait it read last (ns). */
interface Thread {
  file: Deno.FsFile;
  lastNs: number;
}

/** Room for `/proc/stat` up to its `cpuN` lines on a machine of several hundred CPUs. */
const STAT_BYTES = 64 * 1024;

/** Reads the counters, one sample a call; see the module's description. */
export class CounterSampler {
  readonly #root: string;
  readonly #pids?: () => readonly number[];
  readonly #refreshEvery: number;
  readonly #now: () => number;
  readonly #pressure?: Deno.FsFile;
  readonly #stat?: Deno.FsFile;
  readonly #statBuffer = new Uint8Array(STAT_BYTES);
  readonly #small = new Uint8Array(256);
  readonly #decoder = new TextDecoder();
  readonly #threads = new Map<string, Thread>();
  /** The followed threads' growth so far, including that of threads since gone (ns). */
  #waitedNs = 0;
  /** Whether any thread's wait was ever read: else there is no service wait to report. */
  #readAny = false;
  #samples = 0;

  constructor(options: CounterSamplerOptions = {}) {
    this.#root = options.procRoot ?? "/proc";
    this.#pids = options.pids;
    this.#refreshEvery = Math.max(1, options.refreshEvery ?? 4);
    this.#now = options.nowEpochMs ?? (() => performance.timeOrigin + performance.now());
    this.#pressure = openOrNone(`${this.#root}/pressure/cpu`);
    this.#stat = openOrNone(`${this.#root}/stat`);
  }

  /** How many of the service's threads are followed now. */
  get threads(): number {
    return this.#threads.size;
  }

  /** Reads every counter now. */
  sample(): ContentionSample {
    const atEpochMs = this.#now();
    if (this.#pids && this.#samples++ % this.#refreshEvery === 0) this.#listThreads();
    const pressure = this.#pressure && readFrom(this.#pressure, this.#small, this.#decoder);
    const pressureUs = pressure === undefined ? undefined : pressureTotalUs(pressure);
    const stat = this.#stat && readFrom(this.#stat, this.#statBuffer, this.#decoder);
    const stealTicks = stat === undefined ? undefined : stealTicksPerCpu(stat);
    for (const [key, thread] of this.#threads) {
      const text = readFrom(thread.file, this.#small, this.#decoder);
      const ns = text === undefined ? undefined : schedstatWaitNs(text);
      if (ns === undefined) {
        this.#drop(key); // the thread has ended
        continue;
      }
      this.#waitedNs += Math.max(0, ns - thread.lastNs);
      thread.lastNs = ns;
    }
    return {
      atEpochMs,
      ...(pressureUs === undefined ? {} : { pressureUs }),
      ...(stealTicks === undefined ? {} : { stealTicks }),
      ...(this.#readAny ? { serviceWaitNs: this.#waitedNs } : {}),
    };
  }

  /** Closes every file it holds. */
  close(): void {
    this.#pressure?.close();
    this.#stat?.close();
    for (const key of [...this.#threads.keys()]) this.#drop(key);
  }

  /**
   * Lists the service's threads: each new one is followed from its wait now (what it waited
   * before it was seen is not counted), each one no longer listed is dropped.
   */
  #listThreads(): void {
    const seen = new Set<string>();
    for (const pid of this.#pids!()) {
      let tasks: Iterable<Deno.DirEntry>;
      try {
        tasks = Deno.readDirSync(`${this.#root}/${pid}/task`);
        for (const task of tasks) {
          const key = `${pid}/task/${task.name}`;
          seen.add(key);
          if (this.#threads.has(key)) continue;
          const file = openOrNone(`${this.#root}/${key}/schedstat`);
          const text = file && readFrom(file, this.#small, this.#decoder);
          const ns = text === undefined ? undefined : schedstatWaitNs(text);
          if (ns === undefined) {
            file?.close();
            continue;
          }
          this.#threads.set(key, { file: file!, lastNs: ns });
          this.#readAny = true;
        }
      } catch {
        continue; // the process has gone, or is not ours to read
      }
    }
    for (const key of [...this.#threads.keys()]) if (!seen.has(key)) this.#drop(key);
  }

  #drop(key: string): void {
    try {
      this.#threads.get(key)?.file.close();
    } catch {
      // already closed
    }
    this.#threads.delete(key);
  }
}

/**
 * The clock ticks per second `/proc/stat` counts in (USER_HZ: `sysconf(_SC_CLK_TCK)` through
 * libc, where FFI is allowed; else 100, what Linux uses on every common architecture).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { clockTicksPerSec } from "./counter_sampler.ts";
 * assert.ok(clockTicksPerSec() > 0);
 * ```
 */
export function clockTicksPerSec(): number {
  const SC_CLK_TCK = 2;
  try {
    const libc = Deno.dlopen("libc.so.6", {
      sysconf: { parameters: ["i32"], result: "i64" },
    });
    try {
      const ticks = Number(libc.symbols.sysconf(SC_CLK_TCK));
      return ticks > 0 ? ticks : 100;
    } finally {
      libc.close();
    }
  } catch {
    return 100; // no FFI, no glibc, not Linux
  }
}

function openOrNone(path: string): Deno.FsFile | undefined {
  try {
    return Deno.openSync(path, { read: true });
  } catch {
    return undefined;
  }
}

/**
 * The file's text from its start, as far as `buffer` holds, in one read: procfs makes these files
 * afresh on a read from offset 0 and hands over all of it that fits. Undefined when it cannot be
 * read (a thread that has ended).
 */
function readFrom(file: Deno.FsFile, buffer: Uint8Array, decoder: TextDecoder): string | undefined {
  try {
    file.seekSync(0, Deno.SeekMode.Start);
    const n = file.readSync(buffer);
    return n === null ? undefined : decoder.decode(buffer.subarray(0, n));
  } catch {
    return undefined;
  }
}
