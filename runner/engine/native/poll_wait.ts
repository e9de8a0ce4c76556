/**
 * How long the epoll loop waits, stated once and pure: the gap between wakes, whether it holds
 * for ready sockets and for deadlines, by the rate of sends the dispatcher last told.
 *
 * @module
 */

/** The longest single wait, so Ctrl-C and worker messages are seen within it. */
export const MAX_WAIT_MS = 50;

/** What the loop knows when it is about to wait. */
export interface PollWaitState {
  /** The engine clock now. */
  nowMs: number;
  /** The dispatcher's next deadline. */
  deadlineMs: number;
  /** When the loop last woke (`-Infinity` before its first wake). */
  lastWakeMs: number;
  /** The shortest time between two wakes while the gap holds. */
  minGapMs: number;
  /** The mean interval between sends lately, as the dispatcher last told (0 until then). */
  sendIntervalMs: number;
  /**
   * How long after the last wake a ready socket may wait for the next deadline (0: it may not).
   * Above 0 only while every socket's next readiness is an answer nobody waits on yet (see
   * {@linkcode pollWait}).
   */
  readDeferMs: number;
  /** A ready socket ends the wait at once (requests wait for a connection). */
  eager: boolean;
  /** Someone interrupted the loop since its last wait. */
  interrupted: boolean;
}

/** The wait: first a sleep blind to sockets (`holdMs`), then a poll until `wakeMs` at most. */
export interface PollWait {
  /** When the loop means to wake for the deadline (its lateness is measured from here). */
  wakeMs: number;
  /** A sleep first, in which sockets do not end the wait (what arrives is read after it). */
  holdMs: number;
}

/**
 * Whether the gap holds for sockets: while sends fall due more often than once per two gaps on
 * average, or before the dispatcher has said. Below that, a wake per send and one per response
 * cost fewer wakes than the gap's, and no send waits for the gap's end.
 */
export function gapHolds(sendIntervalMs: number, minGapMs: number): boolean {
  return sendIntervalMs < 2 * minGapMs;
}

/**
 * Whether deadlines themselves wait for the gap's end: only while sends fall due more often than
 * twice a gap, where a wake per send would cost more than the CPU the gap exists to save.
 */
export function deadlinesBatch(sendIntervalMs: number, minGapMs: number): boolean {
  return sendIntervalMs < minGapMs / 2;
}

/**
 * The loop's wait: a deadline already due wakes at once; a later one waits for the gap's end
 * only while deadlines batch. Ready sockets, unless `eager`, wait for the gap's end while it
 * holds, and with `readDeferMs` for the next deadline, up to `readDeferMs` after the last wake:
 * an answer that arrives between two sends is then read in the wake of the second (its kernel
 * receive time is its time), one wake a request instead of two. After the hold, the poll waits
 * until `wakeMs`, at most {@linkcode MAX_WAIT_MS} from the time the poll starts (see
 * {@linkcode pollTimeoutMs}).
 */
export function pollWait(state: PollWaitState): PollWait {
  const { nowMs, deadlineMs, lastWakeMs, minGapMs, sendIntervalMs, readDeferMs } = state;
  const gapEndMs = lastWakeMs + (gapHolds(sendIntervalMs, minGapMs) ? minGapMs : 0);
  const earliestMs = readDeferMs > 0
    ? Math.max(gapEndMs, Math.min(deadlineMs, lastWakeMs + readDeferMs))
    : gapEndMs;
  const wakeMs = deadlineMs <= nowMs || !deadlinesBatch(sendIntervalMs, minGapMs)
    ? deadlineMs
    : Math.max(deadlineMs, gapEndMs);
  const holds = !state.interrupted && !state.eager && wakeMs > nowMs && earliestMs > nowMs;
  const holdMs = holds ? Math.min(earliestMs, wakeMs, nowMs + MAX_WAIT_MS) - nowMs : 0;
  return { wakeMs, holdMs };
}

/** The poll's timeout after the hold: until `wakeMs`, never negative, at most MAX_WAIT_MS. */
export function pollTimeoutMs(wakeMs: number, nowMs: number, interrupted: boolean): number {
  const waitMs = interrupted ? 0 : Math.min(MAX_WAIT_MS, Math.max(0, wakeMs - nowMs));
  return waitMs >= 0 ? waitMs : 0;
}
