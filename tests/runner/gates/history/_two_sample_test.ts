import assert from "node:assert/strict";
import {
  otavaMagnitude,
  otavaPValue,
  relativeChangeOf,
  sideOf,
} from "../../../../runner/gates/history/_two_sample.ts";

Deno.test("sideOf is exact for a constant side, whatever its size", () => {
  const side = sideOf(Array(7).fill(0.1), 0, 7);
  assert.deepEqual(side, { count: 7, mean: 0.1, squares: 0 });
  assert.deepEqual(sideOf([1, 2, 3, 4], 1, 3), { count: 2, mean: 2.5, squares: 0.5 });
});

Deno.test("Otava's t-test: p = 1 for two values, 0 for two distinct constants, NaN for equal", () => {
  assert.equal(otavaPValue(sideOf([5], 0, 1), sideOf([9], 0, 1)), 1);
  assert.equal(otavaPValue(sideOf([1, 1, 1], 0, 3), sideOf([2, 2], 0, 2)), 0);
  assert.ok(Number.isNaN(otavaPValue(sideOf([1, 1, 1], 0, 3), sideOf([1, 1], 0, 2))));
});

Deno.test("Otava's t-test uses the population spread where the test expects the sample's", () => {
  // Sides [1, 3] and [5, 7]: ddof-0 sd 1 each, fed as if ddof 1: pooled variance (1 + 1) / 2 = 1,
  // t = 4 / √(1 · (½ + ½)) = 4 on 2 degrees of freedom: two-sided p = 1 − 4/√18 = 0.0572.
  const p = otavaPValue(sideOf([1, 3], 0, 2), sideOf([5, 7], 0, 2));
  const t = 4;
  assert.ok(Math.abs(p - (1 - t / Math.sqrt(2 + t * t))) < 1e-12, String(p));
});

Deno.test("Otava's magnitude is the larger of the two ratios, 0 over a zero mean", () => {
  assert.equal(otavaMagnitude(sideOf([100], 0, 1), sideOf([80], 0, 1)), 0.25);
  assert.equal(otavaMagnitude(sideOf([0], 0, 1), sideOf([0], 0, 1)), 0);
});

Deno.test("a relative change from zero is floored at a thousandth of the larger mean", () => {
  const change = relativeChangeOf(sideOf([0, 0, 0], 0, 3), sideOf([0.002, 0.002], 0, 2));
  assert.ok(Math.abs(change.relativeChange - 1000) < 1e-9);
  assert.deepEqual(relativeChangeOf(sideOf([0, 0], 0, 2), sideOf([0, 0], 0, 2)), {
    relativeChange: 0,
    interval95: [0, 0],
  });
});

Deno.test("the relative change's interval is Welch's over meanBefore", () => {
  // Before 9, 10, 11 (mean 10, var 1); after 11, 12, 13 (mean 12, var 1): the difference 2 ±
  // t(0.975, 4) · √(1/3 + 1/3), t = 2.7764451, over 10.
  const change = relativeChangeOf(sideOf([9, 10, 11], 0, 3), sideOf([11, 12, 13], 0, 3));
  const half = 2.7764451052 * Math.sqrt(2 / 3) / 10;
  assert.ok(Math.abs(change.relativeChange - 0.2) < 1e-12);
  assert.ok(Math.abs(change.interval95[0] - (0.2 - half)) < 1e-8);
  assert.ok(Math.abs(change.interval95[1] - (0.2 + half)) < 1e-8);
});
