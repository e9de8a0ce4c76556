/**
 * The timing Worker of the precise waker, and the shared-memory protocol it speaks with
 * atomics_waker.ts (which starts this module as a Worker and imports it for the protocol).
 *
 * The worker blocks in `Atomics.wait`: on the control word with no timeout while no deadline is
 * armed (quiet), or until the armed deadline (but no sooner than `minGapUs` after its last wake),
 * then bumps the wake counter and `Atomics.notify`s the engine thread. Any change by the engine
 * thread bumps the control word and, unless the worker is already due to wake in time (see
 * `WAIT`), notifies it; the loop then re-reads the deadline. A fire is claimed by a
 * compare-exchange on the armed token, so a sleep that was re-armed or interrupted meanwhile is
 * never fired.
 *
 * Deadlines are on the engine thread's `performance.now()` base; a Worker has its own time origin,
 * so readings are shifted by the difference of the two `performance.timeOrigin`s.
 *
 * @module
 */
import { setShortSlice } from "./short_slice.ts";

/**
 * Slots of the shared buffer: Int32 indexes, and Float64 indexes for the `f64*` ones.
 */
export const SLOT = {
  /** Bumped on every change the worker must see; the worker waits on it. */
  control: 0,
  /** Token of the armed sleep, 0 when disarmed. The worker clears it when it fires. */
  armed: 1,
  /** Token of the sleep the worker last fired. */
  fired: 2,
  /** Bumped by the worker on every wake; the engine thread waits on it. */
  wakes: 3,
  /** Non-zero once closed: the worker leaves its loop. */
  closed: 4,
  /** Clock handshake: round number from the engine thread, and the worker's echo. */
  ping: 5,
  pong: 6,
  /** What the worker is waiting for: one of {@linkcode WAIT}. */
  waitKind: 7,
  /** Float64 slot: the armed deadline, engine clock ms. */
  f64Deadline: 4,
  /** Float64 slot: the worker's clock reading during the handshake, engine clock ms. */
  f64Stamp: 5,
  /** Float64 slot: when the worker last fired, engine clock ms (the engine-stall probe's start). */
  f64FiredAt: 6,
  bytes: 56,
} as const;

/**
 * Values of the `waitKind` slot. The engine thread skips the notify (a syscall and a context
 * switch) when the worker is already due to wake no later than the new deadline needs.
 */
export const WAIT = {
  /** Checking the slots; not waiting. */
  running: 0,
  /** Disarmed: waiting with no timeout. */
  idle: 1,
  /** Disarmed but within the minimum gap of its last wake: waiting until the gap ends. */
  gap: 2,
  /** Armed: waiting until the deadline (or the gap end, if later). */
  deadline: 3,
} as const;

/**
 * Handshake rounds used to check the worker's clock conversion.
 */
export const HANDSHAKE_ROUNDS = 32;

/**
 * The engine thread's side of the clock handshake, run once the worker is ready: pings the worker,
 * which answers with its reading of the engine clock. Each round bounds that reading's error
 * between (reading − answer seen) and (reading − ping sent); this returns the middle of the
 * intersection of all rounds' bounds, in us (NaN if the worker never answered). Blocks briefly.
 */
export function measureClockSkewUs(sab: SharedArrayBuffer): number {
  const i32 = new Int32Array(sab);
  const f64 = new Float64Array(sab);
  let lowMs = -Infinity;
  let highMs = Infinity;
  for (let round = 1; round <= HANDSHAKE_ROUNDS; round++) {
    const sentMs = performance.now();
    Atomics.store(i32, SLOT.ping, round);
    Atomics.notify(i32, SLOT.ping);
    if (Atomics.wait(i32, SLOT.pong, round - 1, 100) === "timed-out") break;
    const backMs = performance.now();
    lowMs = Math.max(lowMs, f64[SLOT.f64Stamp] - backMs);
    highMs = Math.min(highMs, f64[SLOT.f64Stamp] - sentMs);
  }
  return lowMs === -Infinity ? NaN : (lowMs + highMs) / 2 * 1000;
}

const PR_SET_TIMERSLACK = 29;

/** The init message sent by atomics_waker.ts. */
interface Init {
  sab: SharedArrayBuffer;
  mainTimeOriginMs: number;
  minGapUs: number;
  timerSlackNs: number;
}

interface WorkerScope {
  onmessage: ((e: MessageEvent<Init>) => void) | null;
  postMessage(message: unknown): void;
  close(): void;
}

const scope = globalThis as unknown as WorkerScope;

// Only when started as the worker; atomics_waker.ts imports this module for the protocol.
if (import.meta.main && "WorkerGlobalScope" in globalThis) scope.onmessage = onInit;

function onInit(e: MessageEvent<Init>): void {
  scope.onmessage = null;
  const { sab, mainTimeOriginMs, minGapUs, timerSlackNs } = e.data;
  const shiftMs = performance.timeOrigin - mainTimeOriginMs;
  const nowMs = () => performance.now() + shiftMs;
  const timerSlackSet = timerSlackNs > 0 && setTimerSlack(timerSlackNs);
  setShortSlice(); // wakes ahead of the process's other threads on its core (short_slice.ts)
  scope.postMessage({ timerSlackSet });
  const i32 = new Int32Array(sab);
  answerHandshake(i32, new Float64Array(sab), nowMs);
  runLoop(i32, new Float64Array(sab), nowMs, minGapUs / 1000);
  scope.close();
}

/**
 * Sets the calling thread's timer slack through libc's prctl; false when FFI is unavailable.
 */
export function setTimerSlack(slackNs: number): boolean {
  try {
    const libc = Deno.dlopen("libc.so.6", {
      prctl: { parameters: ["i32", "u64", "u64", "u64", "u64"], result: "i32" },
    });
    try {
      return libc.symbols.prctl(PR_SET_TIMERSLACK, BigInt(slackNs), 0n, 0n, 0n) === 0;
    } finally {
      libc.close();
    }
  } catch {
    return false;
  }
}

/** Echoes the engine thread's pings with this thread's clock reading (measureClockSkewUs). */
function answerHandshake(i32: Int32Array, f64: Float64Array, nowMs: () => number): void {
  for (let round = 1; round <= HANDSHAKE_ROUNDS; round++) {
    if (Atomics.wait(i32, SLOT.ping, round - 1, 1000) === "timed-out") return;
    f64[SLOT.f64Stamp] = nowMs();
    Atomics.store(i32, SLOT.pong, round);
    Atomics.notify(i32, SLOT.pong);
  }
}

function runLoop(i32: Int32Array, f64: Float64Array, nowMs: () => number, minGapMs: number) {
  let lastWakeMs = -Infinity;
  while (Atomics.load(i32, SLOT.closed) === 0) {
    const control = Atomics.load(i32, SLOT.control);
    const token = Atomics.load(i32, SLOT.armed);
    const gapEndMs = lastWakeMs + minGapMs;
    const dueMs = token === 0 ? gapEndMs : Math.max(f64[SLOT.f64Deadline], gapEndMs);
    const remainingMs = dueMs - nowMs();
    if (token === 0 || remainingMs > 0) {
      const kind = remainingMs <= 0 ? WAIT.idle : token === 0 ? WAIT.gap : WAIT.deadline;
      // Publish what we wait for before waiting; the engine thread reads it after its changes.
      Atomics.store(i32, SLOT.waitKind, kind);
      Atomics.wait(i32, SLOT.control, control, kind === WAIT.idle ? Infinity : remainingMs);
      Atomics.store(i32, SLOT.waitKind, WAIT.running);
      continue;
    }
    // Fire only if the engine thread has not re-armed or disarmed meanwhile.
    if (Atomics.compareExchange(i32, SLOT.armed, token, 0) !== token) continue;
    lastWakeMs = nowMs();
    f64[SLOT.f64FiredAt] = lastWakeMs; // published by the seq-cst store below
    Atomics.store(i32, SLOT.fired, token);
    Atomics.add(i32, SLOT.wakes, 1);
    Atomics.notify(i32, SLOT.wakes);
  }
}
