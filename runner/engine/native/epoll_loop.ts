/**
 * The native engine's event loop: one epoll instance on the engine thread, waited on with
 * `epoll_pwait2` until the dispatcher's next deadline (nanosecond timeout, 1 ns timer slack), so
 * one system call both sleeps until the next fire time and collects every socket that became
 * readable or writable. It is the dispatcher's {@linkcode Waker}: `sleepUntil` blocks the thread
 * in the poll, runs the ready sockets' handlers, and returns; the dispatcher's `await` then lets
 * the outcomes those handlers settled run first (they were queued before it). No timing worker,
 * no cross-thread wake, no promise per read.
 *
 * Blocking the thread would starve its event loop (signals, worker messages), so the loop yields
 * one macrotask at least every {@linkcode YIELD_EVERY_MS} (about 4 us each, measured) and never
 * blocks longer than {@linkcode MAX_WAIT_MS} at a time.
 *
 * @module
 */
import { type LibcNet, NET } from "./libc_net.ts";
import type { Clock, Waker } from "../types.ts";
import { deadlinesBatch, gapHolds, MAX_WAIT_MS, pollTimeoutMs, pollWait } from "./poll_wait.ts";

export { MAX_WAIT_MS };

/** Something registered with the loop: called with the epoll event bits when its fd is ready. */
export interface EpollHandler {
  onEvents(events: number): void;
}

/** How often, at least, the loop yields a macrotask to the thread's event loop while busy. */
export const YIELD_EVERY_MS = 50;
const MAX_EVENTS = 256;
const RESOLVED = Promise.resolve();

/** Options of {@linkcode EpollLoop}. */
export interface EpollLoopOptions {
  libc: LibcNet;
  clock: Clock;
  /** Called whenever the loop reaches a deadline, with how late it got there (ms). */
  onResume?: (stallMs: number) => void;
  /** Timer slack for this thread (ns); 1 makes the kernel wake the poll on time. */
  timerSlackNs?: number;
  /**
   * The shortest time between two wakes of the loop (us), as the timing worker's gap: at high
   * rates one wake serves every request due and every response that arrived in the gap, so the
   * wake rate (and its CPU: each wake costs the kernel a context switch and a timer) stays
   * bounded. Responses keep their true time: the connections read the kernel's receive
   * timestamps. When requests wait for a connection (`sleepUntil(deadline, true)`), a ready
   * socket wakes the loop at once. The gap holds only while deadlines fall due more often than
   * once per two gaps (see {@linkcode EpollLoop.gapped}), and deadlines wait for its end only
   * while sends come more often than twice a gap ({@linkcode EpollLoop.batching}). (The rate of
   * sends, as the dispatcher tells it: the loop's own deadline wakes, batched, would not show it.)
   */
  minGapUs?: number;
  /**
   * How long (ms) after its last wake a ready socket may wait for the next deadline, while every
   * socket the loop watches says it may ({@linkcode EpollLoop.mayDefer}): 0, the default, never.
   * At 1k/s an answer arrives tens of µs after its send and was a wake of its own; read in the
   * next send's wake instead, a request costs one wake, and its time is the kernel's receive
   * timestamp either way. Not for journeys, whose next step is due when the answer is read.
   */
  readDeferMs?: number;
}

/**
 * An epoll loop that is also the dispatcher's waker (`blocking`: its sleeps block the thread).
 */
export class EpollLoop implements Waker {
  /** Sleeps block the thread: callers must not sleep from inside a handler's callbacks. */
  readonly blocking = true;
  /** Whether this thread's timer slack was set. */
  readonly timerSlackSet: boolean;
  readonly libc: LibcNet;
  readonly #clock: Clock;
  readonly #onResume: ((stallMs: number) => void) | undefined;
  readonly #epfd: number;
  readonly #handlers: (EpollHandler | undefined)[] = [];
  readonly #events: Uint8Array;
  readonly #eventsView: DataView;
  readonly #ctl: Uint8Array;
  readonly #ctlView: DataView;
  /** `struct timespec` (two 64-bit fields), written as 32-bit halves: no BigInt per poll. */
  readonly #timespecBytes = new Uint8Array(16);
  readonly #timespec = new DataView(this.#timespecBytes.buffer);
  readonly #channel = new MessageChannel();
  #yielded: (() => void) | undefined;
  /** The macrotask yield in flight, shared by everyone who asks meanwhile. */
  #yielding: Promise<void> | undefined;
  #lastYieldMs: number;
  readonly #minGapMs: number;
  readonly #readDeferMs: number;
  /** Per fd: 1 while its readiness must wake the loop at once (every fd, until it says not). */
  #urgent = new Uint8Array(64);
  #urgentCount = 0;
  /**
   * The last read carried no kernel timestamp (the machine's first run may not, while the kernel
   * turns stamping on): a deferred read would be timed up to `readDeferMs` late.
   */
  #stampless = false;
  /** When the loop last woke (for a deadline or for sockets). */
  #lastWakeMs = -Infinity;
  /** The mean interval between sends lately, as the dispatcher last told (ms; 0 until then). */
  #sendIntervalMs = 0;
  /** `CLOCK_REALTIME` minus the engine clock, read at the last wake (see `arrivalMs`). */
  #realOffsetMs = 0;
  #interrupted = false;
  #closed = false;

  constructor(options: EpollLoopOptions) {
    const { libc } = options;
    this.libc = libc;
    this.#clock = options.clock;
    this.#onResume = options.onResume;
    this.#minGapMs = (options.minGapUs ?? 250) / 1000;
    this.#readDeferMs = options.readDeferMs ?? 0;
    const { epollEventBytes } = libc;
    this.#events = new Uint8Array(epollEventBytes * MAX_EVENTS);
    this.#eventsView = new DataView(this.#events.buffer);
    this.#ctl = new Uint8Array(epollEventBytes);
    this.#ctlView = new DataView(this.#ctl.buffer);
    this.#epfd = libc.symbols.epoll_create1(NET.EPOLL_CLOEXEC);
    if (this.#epfd < 0) throw new Error(`epoll_create1 failed (errno ${libc.errno()})`);
    const slack = BigInt(options.timerSlackNs ?? 1);
    this.timerSlackSet = libc.symbols.prctl(NET.PR_SET_TIMERSLACK, slack, 0n, 0n, 0n) === 0;
    this.#channel.port1.onmessage = () => {
      const resolve = this.#yielded;
      this.#yielded = undefined;
      this.#yielding = undefined;
      resolve?.();
    };
    this.#lastYieldMs = this.#clock.nowMs();
  }

  /** Watches `fd` for `events` (EPOLLIN, EPOLLOUT), calling `handler` when ready. */
  add(fd: number, events: number, handler: EpollHandler): boolean {
    this.#handlers[fd] = handler;
    this.mayDefer(fd, false);
    return this.#control(NET.EPOLL_CTL_ADD, fd, events);
  }

  /**
   * Whether `fd`'s next readiness may wait for the loop's next deadline (with `readDeferMs`): yes
   * only for an answer nobody waits on yet (a request written whole, nothing of its answer read,
   * or an idle keep-alive socket); a connect, a handshake, a write waiting for room or an answer
   * half read wake the loop at once. Every fd is urgent from `add` until it says so.
   */
  mayDefer(fd: number, may: boolean): void {
    if (fd >= this.#urgent.length) {
      const grown = new Uint8Array(Math.max(fd + 1, 2 * this.#urgent.length));
      grown.set(this.#urgent);
      this.#urgent = grown;
    }
    const urgent = may ? 0 : 1;
    if (this.#urgent[fd] === urgent) return;
    this.#urgent[fd] = urgent;
    this.#urgentCount += may ? -1 : 1;
  }

  /** Changes what `fd` is watched for. */
  modify(fd: number, events: number): boolean {
    return this.#control(NET.EPOLL_CTL_MOD, fd, events);
  }

  /** Stops watching `fd` (before it is closed). */
  remove(fd: number): void {
    this.#handlers[fd] = undefined;
    this.mayDefer(fd, true);
    this.#control(NET.EPOLL_CTL_DEL, fd, 0);
  }

  /**
   * Blocks until `deadlineMs`, an interrupt, or ready sockets (whichever is first, but not sooner
   * than the gap after the last wake unless `eager`, and at most {@linkcode MAX_WAIT_MS}), and
   * runs the ready sockets' handlers. Returns how many were ready.
   */
  poll(deadlineMs: number, eager = false): number {
    if (this.#closed) return 0;
    const clock = this.#clock;
    let startMs = clock.nowMs();
    const { wakeMs, holdMs } = pollWait({
      nowMs: startMs,
      deadlineMs,
      lastWakeMs: this.#lastWakeMs,
      minGapMs: this.#minGapMs,
      sendIntervalMs: this.#sendIntervalMs,
      readDeferMs: this.#urgentCount === 0 && !this.#stampless ? this.#readDeferMs : 0,
      eager,
      interrupted: this.#interrupted,
    });
    if (holdMs > 0) {
      // Sockets do not end this part of the wait: what arrives meanwhile is read after it.
      this.libc.sleepMs(holdMs);
      startMs = clock.nowMs();
    }
    const waitMs = pollTimeoutMs(wakeMs, startMs, this.#interrupted);
    this.#interrupted = false;
    const waitNs = Math.round(waitMs * 1e6);
    // Both fields fit in 32 bits (a wait is at most MAX_WAIT_MS); the high halves stay zero.
    this.#timespec.setUint32(0, Math.floor(waitNs / 1e9), true);
    this.#timespec.setUint32(8, waitNs % 1e9, true);
    const { symbols, epollEventBytes, epollDataOffset } = this.libc;
    const n = symbols.epoll_pwait2(this.#epfd, this.#events, MAX_EVENTS, this.#timespecBytes, null);
    if (n < 0) {
      const errno = this.libc.errno();
      if (errno !== NET.EINTR) throw new Error(`epoll_pwait2 failed (errno ${errno})`);
      return 0;
    }
    const afterMs = clock.nowMs();
    this.#lastWakeMs = afterMs;
    if (n > 0) this.#realOffsetMs = this.libc.realtimeMs() - clock.nowMs();
    if (afterMs >= deadlineMs) {
      // Due work runs now: how late past when the loop meant to wake (busy, paused or overslept).
      this.#onResume?.(afterMs - wakeMs);
    }
    const view = this.#eventsView;
    for (let i = 0; i < n; i++) {
      const at = i * epollEventBytes;
      const fd = view.getInt32(at + epollDataOffset, true);
      this.#handlers[fd]?.onEvents(view.getUint32(at, true));
    }
    return n;
  }

  /** See {@linkcode Waker.pace}: the gap follows the rate of sends, not of the loop's wakes. */
  pace(sendIntervalMs: number): void {
    this.#sendIntervalMs = sendIntervalMs;
  }

  /**
   * Whether the gap holds now: while sends fall due more often than once per two gaps on
   * average (above about 2k/s with the 250 us gap), or before the dispatcher has said. Below that, a
   * wake per send and one per response cost fewer wakes than the gap's (at 1k/s the gap woke the
   * loop three times a request, once for nothing), and no send waits for the gap's end.
   */
  get gapped(): boolean {
    return gapHolds(this.#sendIntervalMs, this.#minGapMs);
  }

  /**
   * Whether deadlines themselves wait for the gap's end: only while sends fall due more often than
   * twice a gap (above about 8k/s with the 250 us gap), where a wake per send would cost more
   * than the CPU the gap exists to save. Below that a send is never held back (at 5k/s the gap's
   * wait made the median 1.5x oha's); the ready sockets ride along with the sends' wakes.
   */
  get batching(): boolean {
    return deadlinesBatch(this.#sendIntervalMs, this.#minGapMs);
  }

  /**
   * Places a receive timestamp (`CLOCK_REALTIME`, {@linkcode LibcNet.realtimeMs}'s scale) on the
   * engine clock, by the two clocks' offset read at the last wake; NaN stays NaN. A read without
   * a stamp is timed when it is read, so reads are not deferred until a stamp is seen again.
   */
  arrivalMs(realMs: number): number {
    this.#stampless = realMs !== realMs;
    return realMs - this.#realOffsetMs;
  }

  /** Polls (see {@linkcode poll}); resolves at once, or after a macrotask when one is due. */
  sleepUntil(deadlineMs: number, eager = false): Promise<void> {
    this.poll(deadlineMs, eager);
    if (this.#clock.nowMs() - this.#lastYieldMs < YIELD_EVERY_MS || this.#closed) return RESOLVED;
    return this.yieldMacrotask();
  }

  /** Lets the thread's event loop run once (signals, worker messages, timers due). */
  yieldMacrotask(): Promise<void> {
    this.#lastYieldMs = this.#clock.nowMs();
    if (this.#closed) return RESOLVED;
    this.#yielding ??= new Promise<void>((resolve) => {
      this.#yielded = resolve;
      this.#channel.port2.postMessage(0);
    });
    return this.#yielding;
  }

  /** Makes the next poll return without waiting. */
  interrupt(): void {
    this.#interrupted = true;
  }

  /** Closes the epoll instance (the sockets are their owners' to close). */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.libc.symbols.close(this.#epfd);
    this.#channel.port1.close();
    this.#channel.port2.close();
    this.#yielded?.();
  }

  #control(op: number, fd: number, events: number): boolean {
    const view = this.#ctlView;
    view.setUint32(0, events, true);
    view.setInt32(this.libc.epollDataOffset, fd, true);
    view.setInt32(this.libc.epollDataOffset + 4, 0, true);
    return this.libc.symbols.epoll_ctl(this.#epfd, op, fd, this.#ctl) === 0;
  }
}
