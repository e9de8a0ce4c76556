/**
 * A `Retry-After` header's value read as a delay in seconds (RFC 9110 §10.2.3): delay-seconds as
 * they are, an HTTP-date made a delay from now. Read only for the responses that make a request
 * `rate_limited` (429, or 503 with the header), so no other response pays for it.
 *
 * @module
 */

/**
 * Whether a response with `status` is read for its `Retry-After` (429 Too Many Requests, 503
 * Service Unavailable): the statuses that can make a request `rate_limited`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readsRetryAfter } from "./retry_after.ts";
 * assert.deepEqual([readsRetryAfter(429), readsRetryAfter(503), readsRetryAfter(500)], [true, true, false]);
 * ```
 */
export function readsRetryAfter(status: number): boolean {
  return status === 429 || status === 503;
}

/** The longest delay kept (a day, in seconds): a larger one is kept as this. */
export const MAX_RETRY_AFTER_S = 86_400;

/**
 * The delay in whole seconds a `Retry-After` value asks for, or NaN when it is neither form.
 * delay-seconds (`120`) are taken as they are; an HTTP-date (`Fri, 31 Dec 1999 23:59:59 GMT`, or
 * the obsolete RFC 850 and asctime forms) is made a delay from `nowEpochMs`, rounded up to a whole
 * second, 0 when it has passed. Both are capped at {@linkcode MAX_RETRY_AFTER_S}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { retryAfterSeconds } from "./retry_after.ts";
 * assert.equal(retryAfterSeconds(" 120 ", 0), 120);
 * const now = Date.parse("Sun, 29 Nov 2026 16:00:00 GMT");
 * assert.equal(retryAfterSeconds("Sun, 29 Nov 2026 16:00:30 GMT", now), 30);
 * assert.ok(Number.isNaN(retryAfterSeconds("soon", now)));
 * ```
 */
export function retryAfterSeconds(value: string, nowEpochMs: number): number {
  const text = value.trim();
  if (/^[0-9]+$/.test(text)) return Math.min(MAX_RETRY_AFTER_S, Number(text));
  // An HTTP-date (IMF-fixdate, or the obsolete RFC 850 form) names its weekday and its zone GMT;
  // the obsolete asctime form names no zone and is GMT too. Nothing else Date.parse takes is one.
  const asctime = /^[A-Za-z]{3} [A-Za-z]{3} [ \d]\d \d\d:\d\d:\d\d \d{4}$/.test(text);
  if (!asctime && !/^[A-Za-z]{3,9}, .*GMT$/.test(text)) return NaN;
  const atMs = Date.parse(asctime ? `${text} GMT` : text);
  if (Number.isNaN(atMs)) return NaN;
  return Math.min(MAX_RETRY_AFTER_S, Math.max(0, Math.ceil((atMs - nowEpochMs) / 1000)));
}
