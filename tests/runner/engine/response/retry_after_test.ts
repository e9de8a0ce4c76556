import assert from "node:assert/strict";
import {
  MAX_RETRY_AFTER_S,
  readsRetryAfter,
  retryAfterSeconds,
} from "../../../../runner/engine/response/retry_after.ts";

const NOW = Date.parse("2026-11-29T16:00:00.250Z");

Deno.test("delay-seconds are taken as they are, spaces aside", () => {
  assert.equal(retryAfterSeconds("0", NOW), 0);
  assert.equal(retryAfterSeconds("  120\t", NOW), 120);
  assert.equal(retryAfterSeconds("99999999999", NOW), MAX_RETRY_AFTER_S);
});

Deno.test("an HTTP-date is made a delay from now, rounded up, 0 once it has passed", () => {
  assert.equal(retryAfterSeconds("Sun, 29 Nov 2026 16:00:30 GMT", NOW), 30); // 29.75 s
  assert.equal(retryAfterSeconds("Sun, 29 Nov 2026 15:59:00 GMT", NOW), 0);
  // The obsolete RFC 850 form, which RFC 9110 says a recipient must read.
  assert.equal(retryAfterSeconds("Sunday, 29-Nov-26 16:01:00 GMT", NOW), 60);
  // And asctime's, which names no zone: GMT all the same, whatever this machine's zone.
  assert.equal(retryAfterSeconds("Sun Nov 29 16:02:00 2026", NOW), 120);
  assert.equal(retryAfterSeconds("Fri, 31 Dec 2100 23:59:59 GMT", NOW), MAX_RETRY_AFTER_S);
});

Deno.test("anything else is no delay at all", () => {
  for (const text of ["", "soon", "-5", "1.5", "30s", "2026-11-29T16:00:30Z", "Sun, 29 Nov 2026"]) {
    assert.ok(Number.isNaN(retryAfterSeconds(text, NOW)), JSON.stringify(text));
  }
});

Deno.test("only a 429 or a 503 is read for its Retry-After", () => {
  assert.deepEqual([200, 301, 429, 500, 502, 503, 504].filter(readsRetryAfter), [429, 503]);
});
