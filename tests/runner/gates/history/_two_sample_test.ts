import assert from "node:assert/strict";
import {
  absoluteChangeOf,
  logReach,
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
  assert.ok(Math.abs(change.relativeChange - 999) < 1e-9, String(change.relativeChange));
  assert.deepEqual(relativeChangeOf(sideOf([0, 0], 0, 2), sideOf([0, 0], 0, 2)), {
    relativeChange: 0,
    interval95: [0, 0],
  });
  const toZero = relativeChangeOf(sideOf([0.002, 0.002], 0, 2), sideOf([0, 0, 0], 0, 3));
  assert.ok(Math.abs(toZero.relativeChange + 0.999) < 1e-12, String(toZero.relativeChange));
});

Deno.test("the relative change's interval is Welch's on the log ratio, converted back", () => {
  // Before 9, 10, 11 (mean 10, var 1); after 11, 12, 13 (mean 12, var 1): ln 1.2 ±
  // t(0.975, df) · √(1/(3·10²) + 1/(3·12²)), df by Welch–Satterthwaite.
  const change = relativeChangeOf(sideOf([9, 10, 11], 0, 3), sideOf([11, 12, 13], 0, 3));
  const a = 1 / 300;
  const b = 1 / 432;
  const df = (a + b) ** 2 / (a * a / 2 + b * b / 2);
  assert.ok(df > 3.8 && df < 3.9, String(df));
  const t = 2.8; // t(0.975) between 4 (2.776) and 3 (3.182) degrees of freedom, near 4
  const low = Math.exp(Math.log(1.2) - t * Math.sqrt(a + b)) - 1;
  const high = Math.exp(Math.log(1.2) + t * Math.sqrt(a + b)) - 1;
  assert.ok(Math.abs(change.relativeChange - 0.2) < 1e-12);
  assert.ok(Math.abs(change.interval95[0] - low) < 0.003, `${change.interval95[0]} vs ${low}`);
  assert.ok(Math.abs(change.interval95[1] - high) < 0.004, `${change.interval95[1]} vs ${high}`);
});

Deno.test("a relative change's interval never passes −100%, however wide", () => {
  // Before 100 ± 70, after 20: the difference's Welch interval over meanBefore spans −254% to
  // +94%; on the log ratio it stays above −100%.
  const before = sideOf([100, 30, 170], 0, 3);
  const after = sideOf([20, 25, 15], 0, 3);
  const pointsLow = absoluteChangeOf(before, after).absoluteInterval95[0];
  assert.ok(pointsLow / 100 < -1, "the straight interval passes −100%: this test needs it to");
  const change = relativeChangeOf(before, after);
  assert.ok(Math.abs(change.relativeChange + 0.8) < 1e-12);
  const [low, high] = change.interval95;
  assert.ok(low > -1 && low < change.relativeChange && change.relativeChange < high, `${low}`);
});

Deno.test("the absolute change is the difference of the means with Welch's interval", () => {
  const change = absoluteChangeOf(sideOf([9, 10, 11], 0, 3), sideOf([11, 12, 13], 0, 3));
  const half = 2.7764451052 * Math.sqrt(2 / 3); // t(0.975, 4): equal variances and sizes
  assert.equal(change.absoluteChange, 2);
  assert.ok(Math.abs(change.absoluteInterval95[0] - (2 - half)) < 1e-8);
  assert.ok(Math.abs(change.absoluteInterval95[1] - (2 + half)) < 1e-8);
});

Deno.test("logReach measures a rise and a fall by the same factor alike", () => {
  assert.ok(Math.abs(logReach([0.01, 0.05]) - Math.log(1.05)) < 1e-12);
  assert.ok(Math.abs(logReach([1 / 1.05 - 1, -0.01]) - Math.log(1.05)) < 1e-12);
  assert.equal(logReach([-1, 0]), Infinity);
});
