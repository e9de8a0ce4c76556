/**
 * Request counters: created empty, updated in place on the hot path, added exactly.
 *
 * @module
 */
import type { ErrorKind, RequestCounts } from "../model/run_result.ts";

/**
 * Empty counts.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { emptyCounts } from "./request_counts.ts";
 * assert.equal(emptyCounts().completed, 0);
 * ```
 */
export function emptyCounts(): RequestCounts {
  return {
    scheduled: 0,
    sent: 0,
    completed: 0,
    ok: 0,
    errors: {},
    statusCodes: {},
    bytesSent: 0,
    bytesReceived: 0,
  };
}

/**
 * Adds `b` into `a` (in place) and returns `a`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { addCounts, emptyCounts } from "./request_counts.ts";
 * const total = addCounts(emptyCounts(), { ...emptyCounts(), completed: 3 });
 * assert.equal(total.completed, 3);
 * ```
 */
export function addCounts(a: RequestCounts, b: RequestCounts): RequestCounts {
  a.scheduled += b.scheduled;
  a.sent += b.sent;
  a.completed += b.completed;
  a.ok += b.ok;
  a.bytesSent += b.bytesSent;
  a.bytesReceived += b.bytesReceived;
  for (const [kind, n] of Object.entries(b.errors)) {
    a.errors[kind as ErrorKind] = (a.errors[kind as ErrorKind] ?? 0) + (n ?? 0);
  }
  for (const [code, n] of Object.entries(b.statusCodes)) {
    a.statusCodes[code] = (a.statusCodes[code] ?? 0) + n;
  }
  if (b.messages !== undefined) a.messages = (a.messages ?? 0) + b.messages;
  if (b.retryAfterS !== undefined) {
    const into = a.retryAfterS ??= {};
    for (const [s, n] of Object.entries(b.retryAfterS)) into[s] = (into[s] ?? 0) + n;
  }
  return a;
}

/**
 * Total failed requests in `counts`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { errorTotal } from "./request_counts.ts";
 * assert.equal(errorTotal({ errors: { timeout: 2, reset: 1 } }), 3);
 * ```
 */
export function errorTotal(counts: Pick<RequestCounts, "errors">): number {
  let n = 0;
  for (const v of Object.values(counts.errors)) n += v ?? 0;
  return n;
}

/**
 * The error rate of a group: failed requests over completed ones, 0 when none completed.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { errorRate } from "./request_counts.ts";
 * assert.equal(errorRate({ completed: 200, errors: { timeout: 2 } }), 0.01);
 * ```
 */
export function errorRate(counts: Pick<RequestCounts, "errors" | "completed">): number {
  return counts.completed ? errorTotal(counts) / counts.completed : 0;
}

/**
 * Answers per second: the requests a group completed over its length.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { completedPerSec } from "./request_counts.ts";
 * assert.equal(completedPerSec({ completed: 500 }, 2_000), 250);
 * ```
 */
export function completedPerSec(
  counts: Pick<RequestCounts, "completed">,
  durationMs: number,
): number {
  return counts.completed / (durationMs / 1000);
}

/**
 * What the recorder keeps true of every group of counts, and what is wrong when `counts` breaks
 * it (a phrase naming the counts that disagree), or undefined: each completed request is `ok` or
 * one error; none completes or is sent unscheduled; a status code is counted for each request
 * answered, and only those: a response is `ok`, `unexpected_status`, `rate_limited` or
 * `check_failed`; every other error has no
 * status (the engine settles a request with a status or an error kind, never both); and in a
 * `complete` run every scheduled request completed (nothing scheduled is ever dropped; a stopped
 * run may leave some unfinished).
 */
export function countsProblem(counts: RequestCounts, complete: boolean): string | undefined {
  const { scheduled, sent, completed, ok } = counts;
  const errors = errorTotal(counts);
  if (ok + errors !== completed) {
    return `completed ${completed} but ok ${ok} + errors ${errors} = ${ok + errors}`;
  }
  if (completed > scheduled) return `completed ${completed} of only ${scheduled} scheduled`;
  if (sent > scheduled) return `sent ${sent} of only ${scheduled} scheduled`;
  if (complete && completed !== scheduled) {
    return `scheduled ${scheduled} but completed ${completed} in a complete run: ` +
      `${scheduled - completed} requests unaccounted for (a complete run completes every ` +
      "request it schedules)";
  }
  const byCode = Object.values(counts.statusCodes).reduce((a, b) => a + b, 0);
  // A rate-limited answer, and one that failed a check (`check:`), were answered too.
  const answeredErrors = {
    unexpected_status: counts.errors.unexpected_status ?? 0,
    rate_limited: counts.errors.rate_limited ?? 0,
    check_failed: counts.errors.check_failed ?? 0,
  };
  const unexpected = answeredErrors.unexpected_status;
  const others = Object.entries(answeredErrors).slice(1).filter(([, n]) => n > 0);
  const answered = ok + unexpected + others.reduce((sum, [, n]) => sum + n, 0);
  if (byCode !== answered) {
    return `${byCode} responses by status code but ok ${ok} + unexpected_status ${unexpected}` +
      others.map(([kind, n]) => ` + ${kind} ${n}`).join("") + ` = ${answered} answered`;
  }
  return undefined;
}
