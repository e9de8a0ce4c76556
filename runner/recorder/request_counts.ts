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
 * import { emptyCounts } from "./request_counts.ts";
 * emptyCounts().completed; // 0
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
 * import { addCounts, emptyCounts } from "./request_counts.ts";
 * const total = addCounts(emptyCounts(), { ...emptyCounts(), completed: 3 });
 * total.completed; // 3
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
  return a;
}

/**
 * Total failed requests in `counts`.
 *
 * @example
 * ```ts
 * import { errorTotal } from "./request_counts.ts";
 * errorTotal({ errors: { timeout: 2, reset: 1 } }); // 3
 * ```
 */
export function errorTotal(counts: Pick<RequestCounts, "errors">): number {
  let n = 0;
  for (const v of Object.values(counts.errors)) n += v ?? 0;
  return n;
}
