/**
 * The precise waker: a timing Worker (timing_worker.ts) sleeps in `Atomics.wait` until the armed
 * deadline and wakes the engine thread, which awaits `Atomics.waitAsync`. It wakes within tens of
 * microseconds where `setTimeout` granularity is ~2 ms, and is quiet when no sleep is pending.
 *
 * @module
 */
import { measureClockSkewUs, SLOT, WAIT } from "./timing_worker.ts";
import type { Waker } from "../types.ts";

/**
 * What the waker has done so far. Lateness is time from the requested deadline to the engine
 * thread running again, for sleeps the worker woke (percentiles to 10 us, capped at 10 ms).
 */
export interface WakerStats {
  /** Sleeps the worker woke at their deadline. */
  wakes: number;
  /** Times the worker fired, counting fires that lost a race with a re-arm or an interrupt. */
  workerWakes: number;
  /** Sleeps ended early by `interrupt()` or `close()`. */
  interrupts: number;
  /** Sleeps whose deadline had passed when armed, resolved without the worker. */
  immediate: number;
  lateness: { p50Us: number; p99Us: number; maxUs: number; meanUs: number };
}

/**
 * Options of {@linkcode createAtomicsWaker}.
 */
export interface AtomicsWakerOptions {
  /** The worker wakes no sooner than this after its last wake (coalescing). Default 250. */
  minGapUs?: number;
  /** Timer slack of the worker thread via `prctl`; 0 leaves the default (50 us). Default 1. */
  timerSlackNs?: number;
  /**
   * The engine-stall probe: called on the engine thread each time a sleep resolves, with the time
   * from the wake being signalled (the worker's fire, or the self-notify of a deadline already
   * past) to this thread running again: how late the engine ran work that was due.
   */
  onResume?: (stallMs: number) => void;
}

/**
 * The waker returned by {@linkcode createAtomicsWaker}.
 */
export interface AtomicsWaker extends Waker {
  /** Whether the worker thread's timer slack was set (needs `--allow-ffi`). */
  readonly timerSlackSet: boolean;
  /** Measured error of the worker's reading of the engine clock at start, us. */
  readonly clockSkewUs: number;
  stats(): WakerStats;
}

interface Ready {
  timerSlackSet: boolean;
}

/**
 * The timing worker could not start (e.g. no read permission for its module file).
 */
export class TimingWorkerError extends Error {
  override name = "TimingWorkerError";
}

/**
 * Starts the timing worker and returns once it is ready. Call `close()` when done. Throws a
 * `RangeError` for a negative or non-finite option and {@linkcode TimingWorkerError} when the
 * worker fails to start.
 */
export async function createAtomicsWaker(
  options: AtomicsWakerOptions = {},
): Promise<AtomicsWaker> {
  const { minGapUs = 250, timerSlackNs = 1, onResume } = options;
  for (const [name, value] of Object.entries({ minGapUs, timerSlackNs })) {
    if (!(value >= 0) || !Number.isFinite(value)) {
      throw new RangeError(`${name} must be a finite number >= 0, got ${value}`);
    }
  }
  const sab = new SharedArrayBuffer(SLOT.bytes);
  const worker = new Worker(new URL("./timing_worker.ts", import.meta.url).href, {
    type: "module",
  });
  try {
    const ready = new Promise<Ready>((resolve, reject) => {
      worker.onmessage = (e: MessageEvent<Ready>) => resolve(e.data);
      worker.onerror = (e) => {
        e.preventDefault();
        reject(new TimingWorkerError(`timing worker failed: ${e.message}`));
      };
    });
    worker.postMessage({
      sab,
      mainTimeOriginMs: performance.timeOrigin,
      minGapUs,
      timerSlackNs: Math.round(timerSlackNs),
    });
    const { timerSlackSet } = await ready;
    return new WorkerWaker(worker, sab, timerSlackSet, measureClockSkewUs(sab), onResume);
  } catch (error) {
    worker.terminate();
    throw error;
  }
}

interface Sleep {
  promise: Promise<void>;
  resolve: () => void;
  deadlineMs: number;
  token: number;
}

class WorkerWaker implements AtomicsWaker {
  readonly #worker: Worker;
  readonly #i32: Int32Array;
  readonly #f64: Float64Array;
  readonly #lateness = new LatenessHistogram();
  #sleep: Sleep | undefined;
  #token = 0;
  #selfWokenToken = 0;
  #selfWokenAtMs = 0;
  readonly #onResume: ((stallMs: number) => void) | undefined;
  #workerArmed = false;
  #lastArmedMs = -Infinity;
  #waitingAsync = false;
  #seenWakes = 0;
  #closed = false;
  #wakes = 0;
  #interrupts = 0;
  #immediate = 0;

  constructor(
    worker: Worker,
    sab: SharedArrayBuffer,
    readonly timerSlackSet: boolean,
    readonly clockSkewUs: number,
    onResume?: (stallMs: number) => void,
  ) {
    this.#onResume = onResume;
    this.#worker = worker;
    this.#i32 = new Int32Array(sab);
    this.#f64 = new Float64Array(sab);
  }

  sleepUntil(deadlineMs: number): Promise<void> {
    if (this.#closed) return Promise.resolve();
    const token = this.#token = (this.#token % 0x7fff_fffe) + 1;
    let sleep = this.#sleep;
    if (!sleep) {
      const { promise, resolve } = Promise.withResolvers<void>();
      sleep = this.#sleep = { promise, resolve, deadlineMs, token };
    }
    sleep.deadlineMs = deadlineMs;
    sleep.token = token;
    if (deadlineMs <= performance.now()) {
      // Resolve from a task, not a microtask, so socket reads get to run when we are behind.
      this.#disarmWorker();
      this.#awaitWake();
      this.#selfWokenToken = token;
      this.#selfWokenAtMs = performance.now();
      Atomics.notify(this.#i32, SLOT.wakes);
    } else {
      this.#arm(deadlineMs, token);
      this.#awaitWake();
    }
    return sleep.promise;
  }

  interrupt(): void {
    if (!this.#sleep) return;
    this.#interrupts++;
    this.#disarmWorker();
    this.#settle();
  }

  close(): void {
    if (this.#closed) return;
    this.interrupt();
    this.#closed = true;
    Atomics.store(this.#i32, SLOT.closed, 1);
    this.#poke();
    this.#worker.terminate();
    Atomics.notify(this.#i32, SLOT.wakes); // releases a pending waitAsync
  }

  stats(): WakerStats {
    return {
      wakes: this.#wakes,
      workerWakes: Atomics.load(this.#i32, SLOT.wakes),
      interrupts: this.#interrupts,
      immediate: this.#immediate,
      lateness: this.#lateness.summary(),
    };
  }

  #poke(): void {
    Atomics.add(this.#i32, SLOT.control, 1);
    Atomics.notify(this.#i32, SLOT.control);
  }

  #arm(deadlineMs: number, token: number): void {
    this.#f64[SLOT.f64Deadline] = deadlineMs;
    Atomics.store(this.#i32, SLOT.armed, token);
    Atomics.add(this.#i32, SLOT.control, 1);
    this.#workerArmed = true;
    // Read after the bump (Dekker): a worker about to wait sees the bump, one waiting is seen here.
    const kind = Atomics.load(this.#i32, SLOT.waitKind);
    const wakesInTime = kind === WAIT.gap ||
      (kind === WAIT.deadline && deadlineMs >= this.#lastArmedMs);
    this.#lastArmedMs = deadlineMs;
    if (!wakesInTime) Atomics.notify(this.#i32, SLOT.control);
  }

  /** Disarms without a notify: a waiting worker wakes at its old time, finds nothing, idles. */
  #disarmWorker(): void {
    if (!this.#workerArmed) return;
    this.#workerArmed = false;
    Atomics.store(this.#i32, SLOT.armed, 0);
    Atomics.add(this.#i32, SLOT.control, 1);
  }

  #settle(): void {
    const sleep = this.#sleep;
    this.#sleep = undefined;
    sleep?.resolve();
  }

  /** Keeps one `waitAsync` on the wake counter while a sleep is pending; none when idle. */
  #awaitWake(): void {
    while (this.#sleep && !this.#waitingAsync) {
      const wakes = Atomics.load(this.#i32, SLOT.wakes);
      if (wakes !== this.#seenWakes) {
        this.#seenWakes = wakes;
        this.#checkWake();
        continue;
      }
      const result = Atomics.waitAsync(this.#i32, SLOT.wakes, wakes);
      if (!result.async) continue;
      this.#waitingAsync = true;
      result.value.then(this.#onWake);
    }
  }

  #onWake = (): void => {
    this.#waitingAsync = false;
    if (this.#closed) return;
    this.#seenWakes = Atomics.load(this.#i32, SLOT.wakes);
    this.#checkWake();
    this.#awaitWake();
  };

  #checkWake(): void {
    const sleep = this.#sleep;
    if (!sleep) return;
    if (this.#selfWokenToken === sleep.token) {
      this.#immediate++;
      this.#onResume?.(performance.now() - this.#selfWokenAtMs);
      this.#settle();
    } else if (Atomics.load(this.#i32, SLOT.fired) === sleep.token) {
      this.#wakes++;
      this.#workerArmed = false;
      const nowMs = performance.now();
      this.#lateness.record((nowMs - sleep.deadlineMs) * 1000);
      this.#onResume?.(nowMs - this.#f64[SLOT.f64FiredAt]);
      this.#settle();
    }
  }
}

const BUCKET_US = 10;
const BUCKETS = 1000;

/** Lateness counts in 10 us buckets up to 10 ms (the last bucket holds everything later). */
class LatenessHistogram {
  readonly #counts = new Uint32Array(BUCKETS);
  #count = 0;
  #sumUs = 0;
  #maxUs = 0;

  record(latenessUs: number): void {
    const us = latenessUs > 0 ? latenessUs : 0;
    this.#count++;
    this.#sumUs += us;
    if (us > this.#maxUs) this.#maxUs = us;
    this.#counts[Math.min(Math.floor(us / BUCKET_US), BUCKETS - 1)]++;
  }

  summary(): WakerStats["lateness"] {
    const meanUs = this.#count === 0 ? 0 : this.#sumUs / this.#count;
    const p50Us = this.#percentileUs(0.5);
    return { p50Us, p99Us: this.#percentileUs(0.99), maxUs: this.#maxUs, meanUs };
  }

  /** Upper bound of the bucket holding the percentile, capped at the maximum. */
  #percentileUs(fraction: number): number {
    const rank = Math.ceil(fraction * this.#count);
    let seen = 0;
    for (let b = 0; b < BUCKETS && rank > 0; b++) {
      seen += this.#counts[b];
      if (seen >= rank) return Math.min((b + 1) * BUCKET_US, this.#maxUs);
    }
    return 0;
  }
}

// Never called: puts the worker's module into this module's graph, so `deno install` from a URL
// caches it with the rest instead of leaving it to be fetched when the worker starts.
const _workerInGraph = () => import("./timing_worker.ts");
