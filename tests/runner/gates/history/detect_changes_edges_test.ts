import assert from "node:assert/strict";
import {
  DEFAULT_CHANGE_OPTIONS,
  detectChanges,
  otavaChangePoints,
} from "../../../../runner/gates/history/mod.ts";
import { noisySeries, realValues } from "./_real_noise.ts";

Deno.test("the defaults are Otava's p and window with a 5% minimum", () => {
  assert.deepEqual(DEFAULT_CHANGE_OPTIONS, {
    maxPValue: 0.001,
    windowRuns: 50,
    minMagnitude: 0.05,
  });
});

Deno.test("series of 0, 1, 2 and 5 values give no change and no error", () => {
  for (const values of [[], [7], [7, 900], [100, 100, 100, 300, 300]]) {
    assert.deepEqual(detectChanges(values), [], JSON.stringify(values));
  }
  for (const values of [[], [7], [7, 900]]) assert.deepEqual(otavaChangePoints(values), []);
  // Otava's t-test reads two constant sides as certain (t = ∞); five shuffled values cannot
  // put a split beyond p = 0.1, so tailgate waits for more runs.
  assert.deepEqual(otavaChangePoints([100, 100, 100, 300, 300]), [{ index: 3, pValue: 0 }]);
});

Deno.test("flat series give no change: the real runs' throughput and error rate", () => {
  const throughput = realValues("throughput");
  const errors = realValues("error_rate");
  assert.ok(throughput.every((value) => value === 2000) && errors.every((value) => value === 0));
  for (const values of [throughput, errors, Array(500).fill(0), Array(500).fill(0.1)]) {
    assert.deepEqual(detectChanges(values), []);
    assert.deepEqual(otavaChangePoints(values), []);
  }
});

Deno.test("a rise from a zero error rate is a finite change at the zero floor", () => {
  const values = [...Array(60).fill(0), ...Array(60).fill(0.002)];
  const changes = detectChanges(values);
  assert.equal(changes.length, 1);
  const [change] = changes;
  assert.equal(change.index, 60);
  assert.equal(change.meanBefore, 0);
  assert.equal(change.meanAfter, 0.002);
  // meanAfter / max(meanBefore, 0.001 × 0.002) − 1: the floor's ×1000, never Infinity.
  assert.ok(Math.abs(change.relativeChange - 999) < 1e-9, String(change.relativeChange));
  assert.ok(change.interval95.every(Number.isFinite));
  // In points, what an error rate's change is said in: +0.2 points, exactly.
  assert.equal(change.absoluteChange, 0.002);
  assert.deepEqual(change.absoluteInterval95, [0.002, 0.002]);
});

Deno.test("a change from a noisy zero-ish error rate keeps a finite interval", () => {
  // Errors in a few runs before, many after: meanBefore is tiny but not zero.
  const values = Array.from(
    { length: 120 },
    (_, i) => i < 60 ? (i % 20 === 0 ? 0.0001 : 0) : 0.004 + (i % 3) * 0.001,
  );
  const [change] = detectChanges(values);
  assert.equal(change.index, 60);
  assert.ok(change.relativeChange > 10 && Number.isFinite(change.relativeChange));
  assert.ok(change.interval95[0] > 0 && Number.isFinite(change.interval95[1]));
});

Deno.test("the minimum magnitude drops a small change only when its whole interval is small", () => {
  // 120 quiet runs (±0.5%) with a 1% step: significant, but its interval lies within ±5%.
  const wobble = Array.from(
    { length: 120 },
    (_, i) => (i < 60 ? 100 : 101) + ((i * 7) % 5 - 2) / 4,
  );
  assert.deepEqual(detectChanges(wobble), []);
  assert.equal(detectChanges(wobble, { minMagnitude: 0 }).length, 1);
  // A 4.9% step measured as such, its interval reaching past 5%: kept (Otava drops it).
  const noisy = Array.from(
    { length: 120 },
    (_, i) => (i < 60 ? 100 : 104.9) + ((i * 7) % 5 - 2) * 2,
  );
  const [kept] = detectChanges(noisy);
  assert.ok(Math.abs(kept?.index - 60) <= 1, JSON.stringify(kept)); // run 60 lies low
  assert.ok(kept.relativeChange < 0.05 && kept.interval95[1] >= 0.05, JSON.stringify(kept));
  assert.deepEqual(otavaChangePoints(noisy), []);
});

Deno.test("options out of range and values that are not finite are refused", () => {
  assert.throws(() => detectChanges([1, 2], { maxPValue: 0 }), RangeError);
  assert.throws(() => detectChanges([1, 2], { maxPValue: 1 }), RangeError);
  assert.throws(() => detectChanges([1, 2], { windowRuns: 1 }), RangeError);
  assert.throws(() => detectChanges([1, 2], { windowRuns: 2.5 }), RangeError);
  assert.throws(() => detectChanges([1, 2], { minMagnitude: -0.1 }), RangeError);
  assert.throws(() => detectChanges([1, NaN, 3]), /finite numbers, got NaN at 1/);
  assert.throws(() => otavaChangePoints([Infinity]), RangeError);
});

Deno.test("the same values give the same changes: the shuffles are seeded", () => {
  const values = noisySeries("p99.9", Array.from({ length: 200 }, (_, i) => (i < 100 ? 1 : 2)), 3);
  assert.deepEqual(detectChanges(values), detectChanges(values));
});

Deno.test("the newest run alone is never a change; three runs of a clear step are", () => {
  for (let seed = 1; seed <= 10; seed++) {
    const spiked = noisySeries("p50", Array(100).fill(1), seed);
    spiked.push(spiked[0] * 5);
    assert.deepEqual(detectChanges(spiked), [], `seed ${seed}`);
    const stepped = noisySeries("p50", [...Array(100).fill(1), 2, 2, 2], seed);
    assert.deepEqual(detectChanges(stepped).map((change) => change.index), [100], `seed ${seed}`);
  }
});

Deno.test("a clear step's p-value is marked as the shuffles' floor; a trend's never is", () => {
  const [step] = detectChanges(
    noisySeries("p50", [...Array(60).fill(1), ...Array(60).fill(1.5)], 4),
  );
  assert.equal(step.kind, "step");
  assert.equal(step.pAtFloor, true);
  assert.equal(step.shuffles, 2999);
  assert.equal(step.pValue, 2 / (1 + 2999));
  const creep = Array.from({ length: 120 }, (_, i) => 100 * (1 + 0.01 * Math.max(0, i - 20)));
  const trend = detectChanges(creep).find((change) => change.kind === "trend");
  assert.ok(trend, JSON.stringify(detectChanges(creep)));
  assert.equal(trend.pAtFloor, false);
  assert.equal(trend.shuffles, undefined);
});
