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
 * @module
 */
import type { IntervalResult } from "../model/run_result.ts";
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

/** Starts the encoder worker; see {@linkcode IntervalEncoder}. */
export function startIntervalEncoder(): IntervalEncoder {
  const worker = new Worker(new URL("./interval_encoder_worker.ts", import.meta.url).href, {
    type: "module",
  });
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
  worker.postMessage({ type: "port", port: channel.port1 } satisfies ToEncoder, [channel.port1]);
  return {
    port: channel.port2,
    ready,
    close: async () => {
      worker.terminate();
      if (tid === undefined) return;
      const deadlineMs = performance.now() + ENCODER_EXIT_WAIT_MS;
      while (threadAlive(tid) && performance.now() < deadlineMs) {
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    },
  };
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
      this.#encoded.push(encodeRawInterval(raw));
      return;
    }
    this.#pending.push(raw);
    this.#port.postMessage({ type: "add", raw } satisfies ToEncoder);
  }

  all(): IntervalResult[] {
    return this.#encoded;
  }

  latestP99Us(): number | undefined {
    return this.#encoded.at(-1)?.response.percentilesUs["99"];
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
    if (m.type === "encoded") {
      this.#pending.shift();
      this.#encoded.push(m.interval);
      if (this.#pending.length === 0) this.#settle();
    } else if (m.type === "failed") {
      this.#stopUsingEncoder();
    }
  }

  /** From now on intervals are encoded inline, the unanswered ones first. */
  #stopUsingEncoder(): void {
    if (this.#inline) return;
    this.#inline = true;
    clearTimeout(this.#wait);
    this.#port.close();
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

// Never called: puts the worker's module into this module's graph, so `deno install` from a URL
// caches it with the rest instead of leaving it to be fetched when the worker starts.
const _workerInGraph = () => import("./interval_encoder_worker.ts");
