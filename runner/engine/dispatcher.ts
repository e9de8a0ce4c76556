/**
 * Sends every scheduled request at its intended time. A due request takes a free connection, or
 * a new one up to `maxConnections`, or waits in a FIFO queue whose wait counts in its latency.
 * Nothing is skipped, dropped, merged or capped: a request that cannot be answered within its
 * timeout of its *intended* send time completes as a timeout at its elapsed time, sent or not.
 * Time comes only from the injected {@linkcode Clock} and {@linkcode Waker}.
 *
 * @module
 */
import type { ErrorKind } from "../model/mod.ts";
import type { ScheduleCursor } from "../schedule/mod.ts";
import { RequestQueue } from "./request_queue.ts";
import type { TraceStamp } from "./trace_stamp.ts";
import { SendPace } from "./timing/mod.ts";
import type { LabelChecks } from "./response/mod.ts";
import type { JourneyRunner } from "./journeys/mod.ts";
import type {
  Clock,
  Completion,
  Connection,
  PreparedRequest,
  RecordSink,
  RequestSource,
  ResponseOutcome,
  Waker,
} from "./types.ts";

/** After a stop, how long in-flight requests may take to finish before the record closes. */
export const STOP_GRACE_MS = 2000;

/** How long the initial connections may take to open before the schedule starts anyway. */
export const CONNECT_TIMEOUT_MS = 5000;

/**
 * The once-a-second bookkeeping (`onTick`: closing intervals, progress) takes 0.1-4 ms of the
 * engine thread, measured at 1k/s. It waits for a gap of at least this long before the next send
 * (ms), so it does not hold a send back, at rates with such gaps (below about 2.5k/s constant)...
 */
export const TICK_GAP_MS = 0.4;
/** ...and at most this long past its second (ms), when the rate leaves no such gap. */
export const TICK_WAIT_MAX_MS = 100;

/** What the dispatcher needs. */
export interface DispatcherOptions {
  cursor: ScheduleCursor;
  /** Each label's request: sent as it is, unless `source` renders them per request. */
  requests: readonly PreparedRequest[];
  /** Where each request's bytes come from when they differ per request (a templated plan). */
  source?: RequestSource;
  /**
   * The plan's journeys (engine/journeys/): a journey's first step comes from the schedule, its
   * later steps from their heap, each due at the previous one's completion plus think time.
   */
  journeys?: JourneyRunner;
  connect: () => Connection;
  connections: number;
  maxConnections: number;
  clock: Clock;
  waker: Waker;
  /** Where outcomes and lags go (the recorder). */
  recorder: RecordSink;
  /**
   * `trace`: writes each send's `traceparent` into its bytes (the requests were prepared with a
   * hole for it); absent: none is sent.
   */
  trace?: TraceStamp;
  /** Each label's checks (by label index), evaluated on its responses; absent: none. */
  checks?: readonly (LabelChecks | undefined)[];
  signal?: AbortSignal;
  /** How often timeouts are checked (ms); the timeout's own resolution. */
  sweepMs?: number;
  /** Called about once a second with the offset reached. */
  onTick?: (offsetMs: number, dispatcher: Dispatcher) => void;
}

/** How the dispatch ended. */
export interface DispatchOutcome {
  /** False when stopped by the signal: the record holds what was measured until then. */
  complete: boolean;
  /** Clock time when the last request completed (or the stop). */
  endMs: number;
}

interface Slot {
  conn: Connection;
  busy: boolean;
  fireMs: number;
  stageIndex: number;
  labelIndex: number;
  request: PreparedRequest | undefined;
  /** The traced copy of a fixed request sent (engine/trace_stamp.ts), to give back. */
  copy: PreparedRequest | undefined;
  /** The request's n and journey step (0 for a single request): its name and trace id. */
  n: number;
  step: number;
  /** The request's schedule index, or for a journey's step −(its journey slot + 1). */
  index: number;
  waited: boolean;
  onOutcome: (outcome: ResponseOutcome) => void;
}

/**
 * The dispatcher of one run (or one worker's shard of it).
 */
export class Dispatcher {
  readonly #o: DispatcherOptions;
  readonly #slots: Slot[] = [];
  readonly #idle: Slot[] = [];
  readonly #queue = new RequestQueue();
  readonly #sweepMs: number;
  #inflight = 0;
  #stopping = false;
  /** While the run loop sleeps: the deadline it is armed for (else NaN). */
  #armedMs = NaN;
  #nextSweepMs = 0;
  #nextTickMs = 0;
  #abandoned = false;
  #startMs = 0;
  /** The rate of the sends taken (scheduled requests and journey steps), as the waker is told. */
  readonly #pace = new SendPace();
  readonly #completion: Completion = {
    stageIndex: 0,
    labelIndex: 0,
    fireMs: 0,
    n: 0,
    step: 0,
    writtenMs: 0,
    completedMs: 0,
    status: 0,
    bytesSent: 0,
    bytesReceived: 0,
    firstByteMs: NaN,
    retryAfterS: NaN,
    messages: undefined,
    checkFailed: undefined,
  };
  /** Requests taken from the schedule (due), and the most connections open at once. */
  dispatched = 0;
  peakConnections = 0;
  /**
   * Initial connections that failed to open, by the kind of failure (`tls`, `refused` …), as
   * {@linkcode openConnections} left them: the rest of those it counts did not open in time.
   */
  readonly openFailures: Map<ErrorKind, number> = new Map();

  /** Sockets opened over the run, reconnects included (by connections that count them). */
  get socketsOpened(): number {
    return this.#slots.reduce((n, s) => n + (s.conn.socketsOpened ?? 0), 0);
  }

  constructor(options: DispatcherOptions) {
    this.#o = options;
    this.#sweepMs = options.sweepMs ?? 10;
    for (let i = 0; i < options.connections; i++) this.#idle.push(this.#newSlot());
  }

  /** Requests waiting for a connection now. */
  get queued(): number {
    return this.#queue.length;
  }

  /** Requests in flight now. */
  get inflight(): number {
    return this.#inflight;
  }

  /**
   * Opens the initial connections in parallel before the schedule starts (as wrk does), so the
   * first requests do not pay for connection setup. Waits at most `timeoutMs` (a target whose
   * listen backlog is full leaves connects pending for minutes) and no longer once the run's
   * signal aborts. Returns how many did not open, failed or not in time ({@linkcode openFailures}
   * tells which failed, and how); those connect again on first use, bounded then by their
   * request's timeout.
   */
  async openConnections(timeoutMs = CONNECT_TIMEOUT_MS): Promise<number> {
    const { signal } = this.#o;
    let open = 0;
    const failures = new Map<ErrorKind, number>();
    const opens = this.#slots.map((s) =>
      Promise.resolve(s.conn.open?.()).then((kind) => {
        if (kind === undefined) open++;
        else failures.set(kind, (failures.get(kind) ?? 0) + 1);
      })
    );
    // What had failed when the wait ended (a connect that lands later counts as not in time).
    const settle = () => {
      for (const [kind, n] of failures) this.openFailures.set(kind, n);
      return this.#slots.length - open;
    };
    const { waker, clock } = this.#o;
    if (waker.blocking) {
      // A blocking waker's loop sees the connects finish only while it polls: drive it, a few ms
      // at a time, and let the thread's timers, signals and messages in between.
      let settled = false;
      void Promise.all(opens).then(() => settled = true);
      const endMs = clock.nowMs() + timeoutMs;
      while (!settled && !signal?.aborted && clock.nowMs() < endMs) {
        await waker.sleepUntil(Math.min(endMs, clock.nowMs() + 5));
        await new Promise((resolve) => setTimeout(resolve, 0));
      }
      return settle();
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    let onAbort: (() => void) | undefined;
    const cutOff = new Promise<void>((resolve) => {
      if (signal?.aborted) return resolve(); // stopped before the opening began
      timer = setTimeout(resolve, timeoutMs);
      onAbort = () => resolve();
      signal?.addEventListener("abort", onAbort);
    });
    try {
      await Promise.race([Promise.all(opens), cutOff]);
    } finally {
      clearTimeout(timer);
      if (onAbort) signal?.removeEventListener("abort", onAbort);
    }
    return settle();
  }

  /** Runs the schedule from `startMs` (clock time of offset 0) and waits for every outcome. */
  async run(startMs: number): Promise<DispatchOutcome> {
    this.#startMs = startMs;
    const { clock, waker, cursor, signal } = this.#o;
    const onAbort = () => waker.interrupt();
    signal?.addEventListener("abort", onAbort);
    this.#nextSweepMs = startMs;
    this.#nextTickMs = startMs + 1000;
    try {
      while (true) {
        // Awaited here: returning the promise would run `finally` at once, closing every socket
        // before the grace period let the requests in flight finish.
        if (signal?.aborted) return await this.#stop();
        this.#pump();
        const now = clock.nowMs();
        if (now >= this.#nextSweepMs) {
          this.#sweep(now);
          this.#nextSweepMs = now + this.#sweepMs;
        }
        if (now >= this.#nextTickMs && this.#tickFits(now)) {
          this.#o.onTick?.(now - startMs, this);
          this.#nextTickMs += 1000 * Math.max(1, Math.ceil((now - this.#nextTickMs) / 1000));
        }
        if (
          cursor.done && this.#queue.length === 0 && this.#inflight === 0 &&
          !this.#o.journeys?.pending
        ) {
          return { complete: true, endMs: clock.nowMs() };
        }
        this.#o.source?.renderAhead();
        this.#armedMs = this.#deadline();
        await waker.sleepUntil(this.#armedMs, this.#queue.length > 0);
        this.#armedMs = NaN;
      }
    } finally {
      signal?.removeEventListener("abort", onAbort);
      for (const slot of this.#slots) slot.conn.close();
    }
  }

  /** Whether the due tick runs now: in a gap before the next send, or once it waited enough. */
  #tickFits(now: number): boolean {
    const { cursor } = this.#o;
    return cursor.done || this.#startMs + cursor.fireMs - now >= TICK_GAP_MS ||
      now - this.#nextTickMs >= TICK_WAIT_MAX_MS;
  }

  /** When the run loop must next run: the next fire time, sweep (with work out) or tick. */
  #deadline(): number {
    // A tick that is due waits for a gap (the loop wakes for each send anyway), at most so long.
    let deadline = this.#nextTickMs;
    if (this.#o.clock.nowMs() >= deadline) deadline += TICK_WAIT_MAX_MS;
    if (this.#inflight > 0 || this.#queue.length > 0) {
      deadline = Math.min(deadline, this.#nextSweepMs);
    }
    // Wake for the next fire time even when every connection is busy: the request then only
    // joins the queue, but it is taken on time, so the dispatch lag measures the generator
    // itself and a saturated engine cannot pass its lateness off as queueing.
    const { cursor, journeys } = this.#o;
    if (!cursor.done) deadline = Math.min(deadline, this.#startMs + cursor.fireMs);
    if (journeys?.pending) deadline = Math.min(deadline, this.#startMs + journeys.nextDueMs);
    return deadline;
  }

  /** Takes every due request from the schedule and starts or queues it. */
  #pump(): void {
    if (this.#stopping) return;
    const { cursor, recorder, clock } = this.#o;
    const startMs = this.#startMs;
    const nowMs = clock.nowMs();
    const offsetMs = nowMs - startMs;
    // Due as #deadline() computes it (start + fire time, on the clock), so a wake at that deadline
    // always finds the request due: offsets round differently.
    const taken = this.dispatched;
    const journeys = this.#o.journeys;
    while (!cursor.done && startMs + cursor.fireMs <= nowMs) {
      // A journey's pending step due first goes first.
      while (journeys?.pending && journeys.nextDueMs < cursor.fireMs) this.#pumpStep(journeys);
      recorder.scheduled(cursor.fireMs, cursor.stageIndex, cursor.labelIndex);
      recorder.dispatchLag(Math.max(0, offsetMs - cursor.fireMs), cursor.stageIndex);
      this.dispatched++;
      const index = journeys?.isStep(cursor.labelIndex)
        ? -1 - journeys.start(cursor.index, cursor.fireMs, cursor.stageIndex, cursor.labelIndex)
        : cursor.index;
      this.#take(index, cursor.fireMs, cursor.stageIndex, cursor.labelIndex);
      cursor.advance();
    }
    while (journeys?.pending && startMs + journeys.nextDueMs <= nowMs) this.#pumpStep(journeys);
    if (this.dispatched > taken) {
      // A step is a send like a scheduled request: the waker paces its wakes by both (at 5k
      // journeys/s of two steps, sends come every 0.1 ms, not every 0.2 ms).
      this.#pace.sent(nowMs, this.dispatched - taken);
      this.#o.waker.pace?.(this.#pace.intervalMs);
    }
  }

  /** Takes a journey's due step (scheduled when it was made) and starts or queues it. */
  #pumpStep(journeys: JourneyRunner): void {
    const slot = journeys.popDue();
    const offsetMs = this.#o.clock.nowMs() - this.#startMs;
    this.#o.recorder.dispatchLag(Math.max(0, offsetMs - journeys.dueMs), journeys.stageIndex);
    this.dispatched++;
    this.#take(-1 - slot, journeys.dueMs, journeys.stageIndex, journeys.labelIndex);
  }

  /** A due request takes an idle connection, a new one under the cap, or a place in the queue. */
  #take(index: number, fireMs: number, stageIndex: number, labelIndex: number): void {
    const slot = this.#idle.pop() ??
      (this.#slots.length < this.#o.maxConnections ? this.#newSlot() : undefined);
    if (slot) this.#fire(slot, index, fireMs, stageIndex, labelIndex, false);
    else this.#queue.push(fireMs, stageIndex, labelIndex, index);
  }

  /**
   * Sends request `index` on `slot`. Requests are sent in schedule order (a queued one before any
   * that fell due after it), so a rendering source hands them out in order; one that timed out in
   * the queue is never sent.
   */
  #fire(
    slot: Slot,
    index: number,
    fireMs: number,
    stageIndex: number,
    labelIndex: number,
    waited: boolean,
  ) {
    const journeys = this.#o.journeys;
    const request = index < 0
      ? journeys!.take(-1 - index)
      : this.#o.source?.take(index, labelIndex);
    const n = index < 0 ? journeys!.nOf(-1 - index) : index;
    const step = index < 0 ? journeys!.stepOf(-1 - index) : 0;
    const fixed = this.#o.requests[labelIndex];
    let sent = request ?? fixed;
    const trace = this.#o.trace;
    slot.copy = undefined;
    if (trace !== undefined) {
      sent = trace.stamp(sent, sent === fixed, n, step);
      if (sent.copyOf !== undefined) slot.copy = sent;
    }
    slot.n = n;
    slot.step = step;
    slot.busy = true;
    slot.index = index;
    slot.fireMs = fireMs;
    slot.stageIndex = stageIndex;
    slot.labelIndex = labelIndex;
    slot.request = request;
    slot.waited = waited;
    this.#inflight++;
    slot.conn.send(sent).then(slot.onOutcome);
  }

  #done(slot: Slot, o: ResponseOutcome): void {
    this.#inflight--;
    slot.busy = false;
    const journeys = slot.index < 0 ? this.#o.journeys : undefined;
    if (slot.request !== undefined) {
      if (journeys) journeys.release(-1 - slot.index, slot.request, o.error !== undefined);
      else this.#o.source?.release(slot.request, o.error !== undefined);
      slot.request = undefined;
    }
    if (slot.copy !== undefined) {
      this.#o.trace!.release(slot.copy, o.error !== undefined);
      slot.copy = undefined;
    }
    if (this.#abandoned) return;
    const { recorder } = this.#o;
    const startMs = this.#startMs;
    const sent = o.bytesSent > 0;
    const writtenMs = sent ? o.writtenAtMs - startMs : NaN;
    if (sent) {
      // A connect is the server's time (a SYN retry against a full backlog takes a second), not
      // the generator's lateness: lag and wait run to when the request began to connect.
      const connectMs = o.connectMs ?? 0;
      if (connectMs > 0) recorder.connectTime(connectMs, slot.stageIndex);
      const lagMs = writtenMs - connectMs - slot.fireMs;
      if (slot.waited) recorder.queueWait(lagMs, slot.stageIndex);
      else if (journeys?.isLaterStep(-1 - slot.index)) recorder.stepLag(lagMs, slot.stageIndex);
      else recorder.sendLag(lagMs, slot.stageIndex);
    }
    // One scratch record, filled per request: the recorder reads it synchronously.
    const c = this.#completion;
    c.stageIndex = slot.stageIndex;
    c.labelIndex = slot.labelIndex;
    c.fireMs = slot.fireMs;
    c.n = slot.n;
    c.step = slot.step;
    c.writtenMs = writtenMs;
    c.completedMs = o.completedAtMs - startMs;
    c.status = o.status;
    c.error = o.error;
    c.checkFailed = undefined;
    const checks = this.#o.checks?.[slot.labelIndex];
    if (checks !== undefined && o.error === undefined && o.status !== 0) {
      if (checks.evaluate(o)) c.error = "check_failed";
      c.checkFailed = checks.failed;
    }
    if (journeys !== undefined) {
      // A step's status and captures decide whether its journey goes on; its checks were
      // counted above, and how a status failed (unexpected, rate limited) the recorder says.
      const step = journeys.judge(-1 - slot.index, o);
      if (step === "check_failed" && c.error === undefined) c.error = step;
    }
    c.bytesSent = o.bytesSent;
    c.bytesReceived = o.bytesReceived;
    c.firstByteMs = o.firstByteAtMs === undefined ? NaN : o.firstByteAtMs - startMs;
    c.retryAfterS = o.retryAfterS ?? NaN;
    c.messages = o.messages;
    recorder.complete(c);
    journeys?.completed(-1 - slot.index, c.completedMs, c.error, this.#stopping);
    const q = this.#queue;
    if (!this.#stopping && q.shift()) {
      this.#fire(slot, q.index, q.fireMs, q.stageIndex, q.labelIndex, true);
    } else if (o.error !== undefined && !sent) {
      // A connection that could not even connect goes to the back of the idle ones: the next
      // requests take a working connection first instead of failing on this one again and again.
      this.#idle.unshift(slot);
    } else this.#idle.push(slot);
    this.#pump();
    const { waker } = this.#o;
    if (this.#inflight === 0 && (this.#o.cursor.done || this.#stopping)) {
      waker.interrupt();
    } else if (this.#armedMs === this.#armedMs && !this.#stopping && !waker.blocking) {
      // Responses drive the dispatch under load: when this one took every request that had
      // fallen due, the sleeping loop's wake would find nothing to do. Move it to the next
      // deadline instead (the waker skips the notify when its worker wakes in time anyway).
      const deadline = this.#deadline();
      if (deadline > this.#armedMs) {
        this.#armedMs = deadline;
        void waker.sleepUntil(deadline);
      }
    }
  }

  /** Times out requests older than their timeout, measured from their intended send time. */
  #sweep(now: number): void {
    const offsetMs = now - this.#startMs;
    for (const slot of this.#slots) {
      if (slot.busy && offsetMs - slot.fireMs >= this.#o.requests[slot.labelIndex].timeoutMs) {
        slot.conn.abort("timeout");
      }
    }
    const q = this.#queue;
    while (
      q.length > 0 && offsetMs - q.headFireMs >= this.#o.requests[q.headLabelIndex].timeoutMs
    ) {
      q.shift();
      const completedMs = offsetMs;
      const journeys = this.#o.journeys;
      this.#o.recorder.complete({
        stageIndex: q.stageIndex,
        labelIndex: q.labelIndex,
        fireMs: q.fireMs,
        n: q.index < 0 ? journeys!.nOf(-1 - q.index) : q.index,
        step: q.index < 0 ? journeys!.stepOf(-1 - q.index) : 0,
        writtenMs: NaN,
        completedMs: offsetMs,
        status: 0,
        error: "timeout",
        bytesSent: 0,
        bytesReceived: 0,
      });
      if (q.index < 0) {
        this.#o.journeys?.completed(-1 - q.index, completedMs, "timeout", this.#stopping);
      }
    }
  }

  /**
   * Stops taking requests. In-flight ones get up to {@linkcode STOP_GRACE_MS} (and their own
   * timeout) to finish and are recorded; any still open then are left out of the record, like the
   * queued ones: the result counts them as scheduled but not completed, and is marked incomplete.
   */
  async #stop(): Promise<DispatchOutcome> {
    this.#stopping = true;
    const { clock, waker } = this.#o;
    const graceEndMs = clock.nowMs() + STOP_GRACE_MS;
    while (this.#inflight > 0 && clock.nowMs() < graceEndMs) {
      this.#sweep(clock.nowMs());
      await waker.sleepUntil(Math.min(graceEndMs, clock.nowMs() + this.#sweepMs));
    }
    this.#abandoned = true;
    this.#o.journeys?.stop();
    return { complete: false, endMs: clock.nowMs() };
  }

  #newSlot(): Slot {
    const slot: Slot = {
      conn: this.#o.connect(),
      busy: false,
      fireMs: 0,
      stageIndex: 0,
      labelIndex: 0,
      request: undefined,
      copy: undefined,
      n: 0,
      step: 0,
      index: 0,
      waited: false,
      onOutcome: () => {},
    };
    // Bound once per connection, not once per request.
    slot.onOutcome = (outcome) => this.#done(slot, outcome);
    this.#slots.push(slot);
    this.peakConnections = Math.max(this.peakConnections, this.#slots.length);
    return slot;
  }
}
