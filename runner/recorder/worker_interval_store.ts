/**
 * An {@linkcode IntervalStore} that encodes in a background worker (interval_encoder_worker.ts)
 * at idle priority, so the engine thread only copies a closed interval's non-empty buckets and
 * posts them. Nothing measured is lost if the worker fails: intervals it has not sent back
 * encoded are kept raw and encoded inline at `flush`.
 *
 * @module
 */
import type { IntervalResult } from "../model/run_result.ts";
import type { FromEncoder, ToEncoder } from "./interval_encoder_worker.ts";
import type { IntervalStore } from "./interval_store.ts";
import { encodeRawInterval, type RawInterval } from "./raw_interval.ts";

/**
 * Starts the encoder worker; resolves once it is ready.
 */
export async function startWorkerIntervalStore(): Promise<WorkerIntervalStore> {
  const worker = new Worker(new URL("./interval_encoder_worker.ts", import.meta.url).href, {
    type: "module",
  });
  const idlePriority = await new Promise<boolean>((resolve, reject) => {
    worker.onmessage = (e: MessageEvent<FromEncoder>) => {
      if (e.data.type === "ready") resolve(e.data.idlePriority);
    };
    worker.onerror = (e) => {
      e.preventDefault();
      reject(new Error(`interval encoder worker failed to start: ${e.message}`));
    };
  }).catch((error) => {
    worker.terminate();
    throw error;
  });
  return new WorkerIntervalStore(worker, idlePriority);
}

/** See the module doc. */
export class WorkerIntervalStore implements IntervalStore {
  readonly #worker: Worker;
  /** Whether the worker runs under SCHED_IDLE. */
  readonly idlePriority: boolean;
  /** Added but not yet sent back encoded, oldest first. */
  readonly #pending: RawInterval[] = [];
  readonly #encoded: IntervalResult[] = [];
  #inline = false;
  #onSettled: (() => void) | undefined;

  constructor(worker: Worker, idlePriority: boolean) {
    this.#worker = worker;
    this.idlePriority = idlePriority;
    worker.onmessage = (e: MessageEvent<FromEncoder>) => this.#message(e.data);
    worker.onerror = (e) => {
      e.preventDefault();
      this.#stopWorker();
    };
  }

  add(raw: RawInterval): void {
    if (this.#inline) {
      this.#encoded.push(encodeRawInterval(raw));
      return;
    }
    this.#pending.push(raw);
    this.#worker.postMessage({ type: "add", raw } satisfies ToEncoder);
  }

  all(): IntervalResult[] {
    return this.#encoded;
  }

  latestP99Us(): number | undefined {
    return this.#encoded.at(-1)?.response.percentilesUs["99"];
  }

  async flush(): Promise<void> {
    if (!this.#inline && this.#pending.length > 0) {
      await new Promise<void>((resolve) => this.#onSettled = resolve);
    }
    this.#stopWorker();
  }

  close(): void {
    this.#stopWorker();
  }

  #message(m: FromEncoder): void {
    if (m.type === "encoded") {
      this.#pending.shift();
      this.#encoded.push(m.interval);
      if (this.#pending.length === 0) this.#settle();
    } else if (m.type === "failed") {
      this.#stopWorker();
    }
  }

  /** From now on intervals are encoded inline, the unanswered ones first. */
  #stopWorker(): void {
    if (this.#inline) return;
    this.#inline = true;
    this.#worker.terminate();
    for (const raw of this.#pending.splice(0)) this.#encoded.push(encodeRawInterval(raw));
    this.#encoded.sort((a, b) => a.startMs - b.startMs);
    this.#settle();
  }

  #settle(): void {
    const resolve = this.#onSettled;
    this.#onSettled = undefined;
    resolve?.();
  }
}

// Never called: puts the worker's module into this module's graph, so `deno install` from a URL
// caches it with the rest instead of leaving it to be fetched when the worker starts.
const _workerInGraph = () => import("./interval_encoder_worker.ts");
