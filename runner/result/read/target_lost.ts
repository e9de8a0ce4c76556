/**
 * Whether the target stopped answering during the run: from some interval to the end, every
 * request that completed failed on the connection (refused, reset, timed out) and none got an
 * HTTP answer. Such a run ends with the target-unreachable exit code whatever its SLOs say: the
 * latencies measured before it died describe a server that no longer exists. Pure.
 *
 * @module
 */
import type { ErrorKind, IntervalResult, RunVerdict } from "../../model/mod.ts";

/** Failures that mean no server answered on the connection. */
const CONNECTION_FAILURES: readonly ErrorKind[] = ["refused", "reset", "timeout", "other"];

/** The shortest trailing silence (ms of intended time) that counts as the target being lost. */
export const TARGET_LOST_MIN_MS = 1000;

/**
 * The trailing span of intervals in which every completed request failed on the connection, when
 * it lasts at least {@linkcode TARGET_LOST_MIN_MS} and holds at least 10 failed requests.
 */
export function targetLost(
  intervals: readonly Pick<IntervalResult, "startMs" | "durationMs" | "counts">[],
): RunVerdict["targetLost"] {
  let sinceMs: number | undefined;
  let endMs = 0;
  let failedRequests = 0;
  for (const i of intervals) {
    const c = i.counts;
    if (c.completed === 0) continue;
    let connectionFailures = 0;
    for (const kind of CONNECTION_FAILURES) connectionFailures += c.errors[kind] ?? 0;
    if (connectionFailures < c.completed) {
      // Something answered here: the silence, if any, starts later.
      sinceMs = undefined;
      failedRequests = 0;
      continue;
    }
    sinceMs ??= i.startMs;
    endMs = i.startMs + i.durationMs;
    failedRequests += connectionFailures;
  }
  if (sinceMs === undefined || endMs - sinceMs < TARGET_LOST_MIN_MS || failedRequests < 10) {
    return undefined;
  }
  return { sinceMs, failedRequests };
}
