import assert from "node:assert/strict";
import { rateLimitedSentence } from "../../../reporters/figures/rate_limited_text.ts";
import type { RunResult } from "../../../runner/model/run_result.ts";

function result(
  errors: Record<string, number>,
  retryAfterS: Record<string, number> | undefined,
  limitedBySecond: number[],
): Pick<RunResult, "totals" | "intervals"> {
  return {
    totals: { counts: { errors, ...(retryAfterS ? { retryAfterS } : {}) } },
    intervals: limitedBySecond.map((n, i) => ({
      startMs: i * 1000,
      durationMs: i === limitedBySecond.length - 1 ? 500 : 1000,
      counts: { errors: n > 0 ? { rate_limited: n } : {} },
    })),
  } as never;
}

Deno.test("no sentence without rate-limited requests, or for a result before they were counted", () => {
  assert.equal(rateLimitedSentence(result({ timeout: 3 }, undefined, [0, 0])), undefined);
  assert.equal(rateLimitedSentence(result({}, undefined, [])), undefined);
});

Deno.test("the Retry-After values by seconds, smallest first, then how many came without one", () => {
  assert.equal(
    rateLimitedSentence(result({ rate_limited: 1200 }, { "120": 1000, "5": 150 }, [0, 1, 1199])),
    "1,200 requests (429, or 503 with Retry-After), Retry-After 5s × 150, 120s × 1,000 " +
      "(50 without one), due from 1s to 2.5s into the run",
  );
});

Deno.test("one request, without a Retry-After and without intervals, is still named", () => {
  assert.equal(
    rateLimitedSentence(result({ rate_limited: 1 }, undefined, [])),
    "1 request (429, or 503 with Retry-After), no Retry-After",
  );
});
