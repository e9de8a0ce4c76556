import assert from "node:assert/strict";
import {
  exceedanceP,
  historyModel,
  isUsefulBound,
  MAX_HISTORY_RUNS,
  predictionBounds,
} from "../../../../runner/gates/stats/prediction_bound.ts";
import { tQuantile } from "../../../../runner/gates/stats/student_t.ts";

function assertClose(actual: number, expected: number, relative: number, what = ""): void {
  assert.ok(
    Math.abs(actual - expected) <= relative * Math.abs(expected),
    `${what} ${actual} is not within ${relative} (relative) of ${expected}`,
  );
}

/** t(p, 2) in closed form: (2p − 1) / √(2p(1 − p)). */
function tTwo(p: number): number {
  return (2 * p - 1) / Math.sqrt(2 * p * (1 - p));
}

Deno.test("three values in geometric progression give the hand-computed bounds", () => {
  // log 100, log 110, log 121 = log 110 + (−1, 0, 1)·log 1.1: median log 110, MAD log 1.1, so
  // the spread is 1.4826·log 1.1.
  const bounds = predictionBounds([100, 110, 121]);
  assert.ok(bounds);
  const factor = 1.1 ** (tTwo(0.999) * 1.4826 * Math.sqrt(1 + 1 / 3));
  assertClose(bounds.upper, 110 * factor, 1e-9, "upper");
  assertClose(bounds.lower, 110 / factor, 1e-9, "lower");
  assert.equal(bounds.n, 3);
});

Deno.test("the confidence sets the t quantile", () => {
  const bounds = predictionBounds([100, 110, 121], 0.9);
  assert.ok(bounds);
  assertClose(bounds.upper, 110 * 1.1 ** (tTwo(0.9) * 1.4826 * Math.sqrt(4 / 3)), 1e-9);
  const strict = predictionBounds([100, 110, 121], 0.999);
  assert.ok(strict && strict.upper > bounds.upper && strict.lower < bounds.lower);
});

Deno.test("fewer than three values give no bound", () => {
  assert.equal(predictionBounds([]), undefined);
  assert.equal(predictionBounds([120]), undefined);
  assert.equal(predictionBounds([120, 130]), undefined);
});

Deno.test("a constant history bounds the next run to that value", () => {
  assert.deepEqual(predictionBounds([250, 250, 250, 250]), { upper: 250, lower: 250, n: 4 });
});

Deno.test("a tight history's bounds enclose every past value", () => {
  const p99Ms = [120, 118, 125, 121, 119, 123, 122, 117, 124, 120];
  const bounds = predictionBounds(p99Ms);
  assert.ok(bounds);
  assert.ok(bounds.upper > Math.max(...p99Ms), `upper ${bounds.upper}`);
  assert.ok(bounds.lower < Math.min(...p99Ms), `lower ${bounds.lower}`);
  // Tight history, tight bound: well under a 50% slow-down still passes, 150 ms does not.
  assert.ok(bounds.upper < 150, `upper ${bounds.upper}`);
});

Deno.test("only the last 30 values count", () => {
  const recent = Array.from({ length: MAX_HISTORY_RUNS }, (_, i) => 100 + (i % 7));
  const withOldOutliers = [5_000, 1, 9_000, ...recent];
  assert.deepEqual(predictionBounds(withOldOutliers), predictionBounds(recent));
  assert.equal(predictionBounds(withOldOutliers)?.n, 30);
});

Deno.test("bounds scale with the values and are centred on the median", () => {
  const values = [3.1, 2.9, 3.4, 3.0, 3.3];
  const base = predictionBounds(values);
  const scaled = predictionBounds(values.map((v) => v * 1_000));
  assert.ok(base && scaled);
  assertClose(scaled.upper, base.upper * 1_000, 1e-12);
  assertClose(scaled.lower, base.lower * 1_000, 1e-12);
  // Centred on the median on the log scale.
  assertClose(Math.sqrt(base.upper * base.lower), 3.1, 1e-12);
});

Deno.test("a noisier history gives wider bounds", () => {
  const tight = predictionBounds([100, 101, 99, 100, 102]);
  const noisy = predictionBounds([100, 130, 80, 100, 120]);
  assert.ok(tight && noisy);
  assert.ok(noisy.upper > tight.upper && noisy.lower < tight.lower);
});

Deno.test("non-positive or non-finite values and bad confidences are rejected", () => {
  for (const bad of [0, -5, NaN, Infinity]) {
    assert.throws(() => predictionBounds([100, 110, bad]), RangeError);
  }
  for (const confidence of [0.5, 1, 0, NaN]) {
    assert.throws(() => predictionBounds([100, 110, 121], confidence), RangeError);
  }
});

Deno.test("one outlier run can neither drag the centre nor widen the bound much", () => {
  const steady = [100, 101, 99, 100, 102, 98, 100];
  const withOutlier = [...steady, 300];
  const robust = predictionBounds(withOutlier)!;
  // Mean and standard deviation of the logs would put the bound near 300 and hide a 50% regression.
  const logs = withOutlier.map(Math.log);
  const m = logs.reduce((a, b) => a + b, 0) / logs.length;
  const sd = Math.sqrt(logs.reduce((a, b) => a + (b - m) ** 2, 0) / (logs.length - 1));
  const classicUpper = Math.exp(m + tQuantile(0.999, 7) * sd * Math.sqrt(1 + 1 / logs.length));
  assert.ok(classicUpper > 300, `classic ${classicUpper}`);
  assert.ok(robust.upper < 115, `robust ${robust.upper}`);
  assertClose(Math.exp(historyModel(withOutlier)!.centre), 100, 0.005);
});

Deno.test("exceedanceP() is one minus the confidence at the prediction bound, and 0.5 at the centre", () => {
  const values = [120, 118, 125, 121, 119, 123];
  const model = historyModel(values)!;
  assertClose(exceedanceP(model, Math.exp(model.centre), true), 0.5, 1e-9);
  for (const confidence of [0.9, 0.999, 0.9999]) {
    const { upper, lower } = predictionBounds(values, confidence)!;
    assertClose(exceedanceP(model, upper, true), 1 - confidence, 1e-6, `upper at ${confidence}`);
    assertClose(exceedanceP(model, lower, false), 1 - confidence, 1e-6, `lower at ${confidence}`);
  }
  // No spread: beyond every past value or not.
  const flat = historyModel([250, 250, 250])!;
  assert.equal(exceedanceP(flat, 251, true), 0);
  assert.equal(exceedanceP(flat, 250, true), 1);
});

Deno.test("isUsefulBound(): a bound beyond 3× the centre (a third, for a drop) is of no use", () => {
  const tight = predictionBounds([1, 1.1, 0.95, 1.05, 0.9], 0.9998)!;
  assert.ok(isUsefulBound(tight, 1, true) && isUsefulBound(tight, 1, false), JSON.stringify(tight));
  const scattered = predictionBounds([1, 1.3, 0.8], 0.9998)!;
  assert.ok(scattered.upper > 1_000, `three runs ±25% apart bound at ${scattered.upper}`);
  assert.equal(isUsefulBound(scattered, 1, true), false);
  assert.equal(isUsefulBound(scattered, 1, false), false);
  assert.equal(
    isUsefulBound({ upper: 3, lower: 1 / 3, n: 5 }, 1, true),
    true,
    "3× itself is of use",
  );
  assert.equal(isUsefulBound({ upper: 3.01, lower: 0.5, n: 5 }, 1, true), false);
  assert.equal(isUsefulBound({ upper: 3.01, lower: 0.5, n: 5 }, 1, false), true);
});
