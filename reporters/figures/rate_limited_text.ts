/**
 * The rate-limited requests of a run in one sentence (terminal, Markdown, HTML): how many (a 429,
 * or a 503 with a `Retry-After`, that their label did not expect), the `Retry-After` values the
 * server sent, and when, by the seconds of intended send time they fell in. The open model did not
 * slow for them: they were counted, as errors, and the schedule went on.
 *
 * @module
 */
import type { RunResult } from "../../runner/model/mod.ts";

/**
 * The sentence, or undefined when no request was rate limited (and for a result written before
 * `rate_limited` was counted).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { rateLimitedSentence } from "./rate_limited_text.ts";
 * const counts = { errors: { rate_limited: 5 }, retryAfterS: { "30": 1, "7": 3 } };
 * const result = {
 *   totals: { counts },
 *   intervals: [
 *     { startMs: 0, durationMs: 1000, counts: { errors: {} } },
 *     { startMs: 1000, durationMs: 1000, counts: { errors: { rate_limited: 2 } } },
 *     { startMs: 2000, durationMs: 1000, counts: { errors: { rate_limited: 3 } } },
 *   ],
 * } as never;
 * assert.equal(
 *   rateLimitedSentence(result),
 *   "5 requests (429, or 503 with Retry-After), Retry-After 7s × 3, 30s × 1 (1 without one), " +
 *     "due from 1s to 3s into the run",
 * );
 * ```
 */
export function rateLimitedSentence(
  result: Pick<RunResult, "totals" | "intervals">,
): string | undefined {
  const limited = result.totals.counts.errors.rate_limited ?? 0;
  if (limited === 0) return undefined;
  const values = Object.entries(result.totals.counts.retryAfterS ?? {})
    .map(([s, n]) => [Number(s), n] as const)
    .sort(([a], [b]) => a - b);
  const withValue = values.reduce((sum, [, n]) => sum + n, 0);
  const parts = values.map(([s, n]) => `${s}s × ${n.toLocaleString("en-US")}`);
  const without = limited - withValue;
  const retryAfter = values.length === 0 ? "no Retry-After" : `Retry-After ${parts.join(", ")}` +
    (without > 0 ? ` (${without.toLocaleString("en-US")} without one)` : "");
  const seconds = result.intervals.filter((i) => (i.counts.errors.rate_limited ?? 0) > 0);
  const when = seconds.length === 0
    ? ""
    : `, due from ${secondsText(seconds[0].startMs)} to ${
      secondsText(seconds.at(-1)!.startMs + seconds.at(-1)!.durationMs)
    } into the run`;
  const n = limited.toLocaleString("en-US");
  return `${n} request${limited === 1 ? "" : "s"} (429, or 503 with Retry-After), ` +
    `${retryAfter}${when}`;
}

/** An offset as whole seconds, or to the tenth where it is not whole: `3s`, `3.5s`. */
function secondsText(ms: number): string {
  const s = Math.round(ms / 100) / 10;
  return `${s}s`;
}
