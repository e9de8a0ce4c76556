import assert from "node:assert/strict";
import {
  expectedCount,
  offsetAtCountMs,
  rateAtMs,
  scheduledCount,
} from "../../../runner/schedule/fire_times.ts";

Deno.test("offsetAtCountMs() inverts the cumulative count of a ramp exactly", () => {
  const p = { fromPerSec: 1_000, toPerSec: 3_000, durationMs: 10_000 };
  for (const tMs of [0, 1, 250, 5_000, 9_999.5]) {
    const t = tMs / 1000;
    const count = 1_000 * t + (2_000 / 10) * t * t / 2;
    assert.ok(Math.abs(offsetAtCountMs(p, count) - tMs) < 1e-6, `t=${tMs}`);
  }
});

Deno.test("scheduledCount() and expectedCount() agree on whole products and round fractional ones up", () => {
  assert.equal(
    scheduledCount({ fromPerSec: 20_000, toPerSec: 20_000, durationMs: 60_000 }),
    1_200_000,
  );
  assert.equal(scheduledCount({ fromPerSec: 3, toPerSec: 3, durationMs: 1_500 }), 5);
  assert.equal(expectedCount({ fromPerSec: 1_000, toPerSec: 3_000, durationMs: 10_000 }), 20_000);
  // 0.7/s for 30 s is 20.999999999999996 in floating point: still 21 requests, not 22 or 20.
  assert.equal(scheduledCount({ fromPerSec: 0.7, toPerSec: 0.7, durationMs: 30_000 }), 21);
});

Deno.test("rateAtMs() reads the intended rate along a ramp and clamps outside it", () => {
  const p = { fromPerSec: 1_000, toPerSec: 3_000, durationMs: 10_000 };
  assert.equal(rateAtMs(p, 0), 1_000);
  assert.equal(rateAtMs(p, 2_500), 1_500);
  assert.equal(rateAtMs(p, 20_000), 3_000);
});
