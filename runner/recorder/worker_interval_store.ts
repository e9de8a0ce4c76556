/**
 * An {@linkcode IntervalStore} that encodes in a background worker (interval_encoder_worker.ts)
 * at idle priority, so the engine thread only copies a closed interval's non-empty buckets and
 * posts them. The thread that starts the encoder owns its Worker; the store talks to it over a
 * `MessagePort`, so the engine may run in another Worker (a Worker started from a Worker takes
 * about half a second to answer under Deno 2.9: the run starts its side Workers from the main
 * thread). Nothing measured is lost if the encoder fails or is ended: intervals it has not sent
 * back encoded are kept raw, and encoded inline at `flush` once it has been silent for a while.
 *
 * @module
 */
import type { IntervalResult } from "../model/run_result.ts";
import type { FromEncoder, ToEncoder } from "./interval_encoder_worker.ts";
import type { IntervalStore } from "./interval_store.ts";
import { encodeRawInterval, type RawInterval } from "./raw_interval.ts";

/** How long `flush` waits without an answer before it encodes what is left inline (ms). */
export const ENCODER_SILENCE_MS = 2000;

/** An encoder Worker, as the thread that started it holds it. */
export interface IntervalEncoder {
  /** The store's end of the encoder's channel (transfer it to the engine's thread). */
  readonly port: MessagePort;
  /** Resolves once the encoder runs, with whether it runs under SCHED_IDLE; rejects if it fails. */
  readonly ready: Promise<boolean>;
  /** Ends the encoder's thread. */
  close(): void;
}

/** Starts the encoder worker; see {@linkcode IntervalEncoder}. */
export function startIntervalEncoder(): IntervalEncoder {
  const worker = new Worker(new URL("./interval_encoder_worker.ts", import.meta.url).href, {
    type: "module",
  });
  const channel = new MessageChannel();
  const ready = new Promise<boolean>((resolve, reject) => {
    worker.onmessage = (e: MessageEvent<FromEncoder>) => {
      if (e.data.type === "ready") resolve(e.data.idlePriority);
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
    close: () => worker.terminate(),
  };
}

/** See the module doc. */
export class WorkerIntervalStore implements IntervalStore {
  readonly #port: MessagePort;
  readonly #silenceMs: number;
  /** Added but not yet sent back encoded, oldest first. */
  readonly #pending: RawInterval[] = [];
  readonly #encoded: IntervalResult[] = [];
  #inline = false;
  #onSettled: (() => void) | undefined;
  #silence: ReturnType<typeof setTimeout> | undefined;

  /** A store over `port`, an {@linkcode IntervalEncoder}'s; `silenceMs` for tests. */
  constructor(port: MessagePort, silenceMs = ENCODER_SILENCE_MS) {
    this.#port = port;
    this.#silenceMs = silenceMs;
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
      this.#armSilence();
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
      else if (this.#onSettled) this.#armSilence();
    } else if (m.type === "failed") {
      this.#stopUsingEncoder();
    }
  }

  /** While flushing: gives up on the encoder after `silenceMs` without an answer. */
  #armSilence(): void {
    clearTimeout(this.#silence);
    this.#silence = setTimeout(() => this.#stopUsingEncoder(), this.#silenceMs);
  }

  /** From now on intervals are encoded inline, the unanswered ones first. */
  #stopUsingEncoder(): void {
    if (this.#inline) return;
    this.#inline = true;
    clearTimeout(this.#silence);
    this.#port.close();
    for (const raw of this.#pending.splice(0)) this.#encoded.push(encodeRawInterval(raw));
    this.#encoded.sort((a, b) => a.startMs - b.startMs);
    this.#settle();
  }

  #settle(): void {
    clearTimeout(this.#silence);
    const resolve = this.#onSettled;
    this.#onSettled = undefined;
    resolve?.();
  }
}

// Never called: puts the worker's module into this module's graph, so `deno install` from a URL
// caches it with the rest instead of leaving it to be fetched when the worker starts.
const _workerInGraph = () => import("./interval_encoder_worker.ts");
