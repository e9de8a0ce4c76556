/**
 * An {@linkcode IntervalStore} that encodes in a background worker (interval_encoder_worker.ts)
 * at a low priority, so the engine thread only copies a closed interval's non-empty buckets and
 * posts them. The thread that starts the encoder owns its Worker; the store talks to it over a
 * `MessagePort`, so the engine may run in another Worker (a Worker started from a Worker takes
 * about half a second to answer under Deno 2.9: the run starts its side Workers from the main
 * thread). Nothing measured is lost if the encoder fails, is ended or falls behind: intervals it
 * has not sent back encoded are kept raw, and `flush` encodes inline what it has not sent back
 * within a bounded wait.
 *
 * The encoded intervals wait for the run's end in a spill file (a temporary file the encoder's
 * owner makes, unlinked once the store has it open), not in the engine's heap: at 20k/s a second's interval is about 6 KB
 * of JSON and more as objects, so a ten-minute run's record grew the engine's old space by about
 * 11 MB (docs/engine.md, the RSS bullet). The store reads back only the bytes the encoder
 * acknowledged, once it stops using the encoder; where no file can be made it is sent them whole.
 *
 * @module
 */
import type { IntervalResult } from "../model/mod.ts";
import type { FromEncoder, ToEncoder } from "./interval_encoder_worker.ts";
import type { IntervalStore } from "./interval_store.ts";
import { encodeRawInterval, type RawInterval } from "./raw_interval.ts";

/**
 * How long `flush` waits for the encoder, in all, before it encodes what is left inline (ms): an
 * encoder that answers slowly but steadily (on a core a busy neighbour holds) does not hold the
 * run's end for its whole backlog.
 */
export const ENCODER_WAIT_MS = 2000;

/** An encoder Worker, as the thread that started it holds it. */
export interface IntervalEncoder {
  /** The store's end of the encoder's channel (transfer it to the engine's thread). */
  readonly port: MessagePort;
  /** Resolves once the encoder runs, with whether it runs at its low priority; rejects if it fails. */
  readonly ready: Promise<boolean>;
  /**
   * Ends the encoder's thread and resolves once it is gone (Linux: its `/proc/self/task` entry),
   * at most {@linkcode ENCODER_EXIT_WAIT_MS} later: the process's last thread to exit frees its
   * memory, which should not be this low-priority one.
   */
  close(): Promise<void>;
}

/** How long {@linkcode IntervalEncoder.close} waits for the thread to be gone (ms). */
export const ENCODER_EXIT_WAIT_MS = 2000;

/**
 * Starts the encoder worker; see {@linkcode IntervalEncoder}. Its spill file is made in `spillDir`
 * (the system's temporary folder by default); where none can be made, intervals come back whole.
 */
export function startIntervalEncoder(spillDir?: string): IntervalEncoder {
  const worker = new Worker(new URL("./interval_encoder_worker.ts", import.meta.url).href, {
    type: "module",
  });
  const spillPath = makeSpillFile(spillDir);
  const channel = new MessageChannel();
  let tid: number | undefined;
  const ready = new Promise<boolean>((resolve, reject) => {
    worker.onmessage = (e: MessageEvent<FromEncoder>) => {
      if (e.data.type !== "ready") return;
      tid = e.data.tid;
      resolve(e.data.lowPriority);
    };
    worker.onerror = (e) => {
      e.preventDefault();
      worker.terminate();
      reject(new Error(`interval encoder worker failed to start: ${e.message}`));
    };
  });
  worker.postMessage(
    { type: "port", port: channel.port1, ...(spillPath ? { spillPath } : {}) } satisfies ToEncoder,
    [channel.port1],
  );
  return {
    port: channel.port2,
    ready,
    close: async () => {
      worker.terminate();
      if (spillPath) await Deno.remove(spillPath).catch(() => {});
      if (tid === undefined) return;
      const deadlineMs = performance.now() + ENCODER_EXIT_WAIT_MS;
      while (threadAlive(tid) && performance.now() < deadlineMs) {
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    },
  };
}

function makeSpillFile(dir: string | undefined): string | undefined {
  try {
    return Deno.makeTempFileSync({ dir, prefix: "tailgate-intervals-", suffix: ".ndjson" });
  } catch {
    return undefined; // no write permission, or no such folder
  }
}

function threadAlive(tid: number): boolean {
  try {
    Deno.statSync(`/proc/self/task/${tid}`);
    return true;
  } catch {
    return false; // gone, or no /proc to read
  }
}

/** See the module doc. */
export class WorkerIntervalStore implements IntervalStore {
  readonly #port: MessagePort;
  readonly #waitMs: number;
  /** Added but not yet sent back encoded, oldest first. */
  readonly #pending: RawInterval[] = [];
  readonly #encoded: IntervalResult[] = [];
  /** The encoder's spill file, open to read, and how many of its bytes hold acknowledged lines. */
  #spill: { file: Deno.FsFile; bytes: number } | undefined;
  #latestP99Us: number | undefined;
  #inline = false;
  #onSettled: (() => void) | undefined;
  #wait: ReturnType<typeof setTimeout> | undefined;

  /** A store over `port`, an {@linkcode IntervalEncoder}'s; `waitMs` for tests. */
  constructor(port: MessagePort, waitMs = ENCODER_WAIT_MS) {
    this.#port = port;
    this.#waitMs = waitMs;
    port.onmessage = (e: MessageEvent<FromEncoder>) => this.#message(e.data);
  }

  add(raw: RawInterval): void {
    if (this.#inline) {
      this.#keep(encodeRawInterval(raw));
      return;
    }
    this.#pending.push(raw);
    this.#port.postMessage({ type: "add", raw } satisfies ToEncoder);
  }

  all(): IntervalResult[] {
    return this.#encoded;
  }

  latestP99Us(): number | undefined {
    return this.#latestP99Us;
  }

  async flush(): Promise<void> {
    if (!this.#inline && this.#pending.length > 0) {
      const settled = new Promise<void>((resolve) => this.#onSettled = resolve);
      this.#wait = setTimeout(() => this.#stopUsingEncoder(), this.#waitMs);
      await settled;
    }
    this.#stopUsingEncoder();
  }

  close(): void {
    this.#stopUsingEncoder();
  }

  #message(m: FromEncoder): void {
    if (m.type === "spilling") {
      try {
        this.#spill = { file: Deno.openSync(m.path, { read: true }), bytes: 0 };
      } catch {
        this.#stopUsingEncoder(); // a file it cannot read: nothing goes there
        return;
      }
      // Both ends hold it open now: its name can go, so that a process ended at once (a second
      // SIGTERM, a kill) leaves nothing in the temporary folder. The owner removes it otherwise.
      try {
        Deno.removeSync(m.path);
      } catch { /* no permission: removed at close */ }
    } else if (m.type === "spilled" && this.#spill) {
      this.#pending.shift();
      this.#spill.bytes += m.bytes;
      this.#latestP99Us = m.p99Us;
      if (this.#pending.length === 0) this.#settle();
    } else if (m.type === "encoded") {
      this.#pending.shift();
      this.#keep(m.interval);
      if (this.#pending.length === 0) this.#settle();
    } else if (m.type === "failed") {
      this.#stopUsingEncoder();
    }
  }

  #keep(interval: IntervalResult): void {
    this.#encoded.push(interval);
    this.#latestP99Us = interval.response.percentilesUs["99"];
  }

  /**
   * From now on intervals are encoded inline: the spilled ones are read back, the unanswered ones
   * encoded.
   */
  #stopUsingEncoder(): void {
    if (this.#inline) return;
    this.#inline = true;
    clearTimeout(this.#wait);
    this.#port.close();
    if (this.#spill) {
      const { file, bytes } = this.#spill;
      this.#spill = undefined;
      try {
        for (const interval of readSpilled(file, bytes)) this.#encoded.push(interval);
      } finally {
        file.close();
      }
    }
    for (const raw of this.#pending.splice(0)) this.#encoded.push(encodeRawInterval(raw));
    this.#encoded.sort((a, b) => a.startMs - b.startMs);
    this.#settle();
  }

  #settle(): void {
    clearTimeout(this.#wait);
    const resolve = this.#onSettled;
    this.#onSettled = undefined;
    resolve?.();
  }
}

/**
 * The intervals in the first `bytes` bytes of a spill file, one line of JSON each. Only a file
 * cut short by someone else lacks any: its complete lines are still read.
 */
function readSpilled(file: Deno.FsFile, bytes: number): IntervalResult[] {
  const buffer = new Uint8Array(bytes);
  let read = 0;
  while (read < bytes) {
    const n = file.readSync(buffer.subarray(read));
    if (n === null) break;
    read += n;
  }
  const lines = new TextDecoder().decode(buffer.subarray(0, read)).split("\n");
  lines.pop(); // after the last newline: empty, or a torn line
  return lines.map((line) => JSON.parse(line));
}

// Never called: puts the worker's module into this module's graph, so `deno install` from a URL
// caches it with the rest instead of leaving it to be fetched when the worker starts.
const _workerInGraph = () => import("./interval_encoder_worker.ts");
