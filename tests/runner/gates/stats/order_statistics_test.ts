import assert from "node:assert/strict";
import {
  percentileConfidenceInterval,
  valueAtRank,
} from "../../../../runner/gates/stats/order_statistics.ts";
import { createHistogram, type Histogram } from "../../../../runner/hdr/mod.ts";

function histogramOf(values: readonly number[]): Histogram {
  const h = createHistogram();
  for (const v of values) h.recordValue(v);
  return h;
}

/** 1, 2, …, n microseconds: below 2048 every value has its own bucket, so ranks are values. */
function oneTo(n: number): Histogram {
  return histogramOf(Array.from({ length: n }, (_, i) => i + 1));
}

/** A skewed latency-like sample: deterministic, spread over several bucket magnitudes. */
function skewed(n: number): Histogram {
  const h = createHistogram();
  let state = 12345;
  for (let i = 0; i < n; i++) {
    state = (state * 1103515245 + 12345) % 2147483648;
    const u = (state + 0.5) / 2147483648;
    h.recordValue(Math.round(500 / Math.sqrt(1 - u)));
  }
  return h;
}

Deno.test("valueAtRank walks cumulative bucket counts", () => {
  const h = createHistogram();
  h.recordValueWithCount(100, 3);
  h.recordValue(200);
  h.recordValueWithCount(300, 2);
  assert.deepEqual([1, 2, 3, 4, 5, 6].map((r) => valueAtRank(h, r)), [
    100,
    100,
    100,
    200,
    300,
    300,
  ]);
});

Deno.test("valueAtRank reports the bucket's highest equivalent value", () => {
  // 2048 and 2049 share a bucket whose highest equivalent value is 2049.
  const h = histogramOf([2048, 5000]);
  assert.equal(valueAtRank(h, 1), 2049);
  assert.equal(valueAtRank(h, 1), h.getValueAtPercentile(50));
  assert.equal(valueAtRank(h, 2), h.maxValue);
});

Deno.test("valueAtRank agrees with getValueAtPercentile at the percentile's rank", () => {
  const h = skewed(3_337);
  const n = h.totalCount;
  for (const q of [0.1, 1, 10, 25, 50, 75, 90, 95, 99, 99.5, 99.9, 99.99, 100]) {
    const rank = Math.max(1, Math.ceil(Number((n * q / 100).toPrecision(12))));
    assert.equal(valueAtRank(h, rank), h.getValueAtPercentile(q), `p${q}`);
  }
});

Deno.test("valueAtRank rejects ranks outside [1, n] and fractional ranks", () => {
  const h = oneTo(5);
  for (const rank of [0, 6, 1.5, NaN]) assert.throws(() => valueAtRank(h, rank), RangeError);
  assert.throws(() => valueAtRank(createHistogram(), 1), RangeError);
});

Deno.test("the interval is read at ranks nq ∓ 1.96·√(nq(1−q)), floored and ceiled", () => {
  const h = oneTo(100);
  // p50: 50 ∓ 1.96·5 = 40.2 .. 59.8.
  assert.deepEqual(percentileConfidenceInterval(h, 50), { lowUs: 40, highUs: 60 });
  // p90: 90 ∓ 1.96·3 = 84.12 .. 95.88.
  assert.deepEqual(percentileConfidenceInterval(h, 90), { lowUs: 84, highUs: 96 });
  // p99: 99 ∓ 1.96·√0.99 = 97.05 .. 100.95, the upper rank clamped to n.
  assert.deepEqual(percentileConfidenceInterval(h, 99), { lowUs: 97, highUs: 100 });
  // z = 1: p50 is 50 ∓ 5 exactly.
  assert.deepEqual(percentileConfidenceInterval(h, 50, 1), { lowUs: 45, highUs: 55 });
});

Deno.test("the interval maps ranks through buckets wider than one microsecond", () => {
  // p99.9 of 1..10000: ranks 9983.8 → 9983 and 9996.2 → 9997; buckets near 10 000 are 8 wide.
  assert.deepEqual(percentileConfidenceInterval(oneTo(10_000), 99.9), {
    lowUs: 9983,
    highUs: 9999,
  });
});

Deno.test("z = 0 collapses the interval onto the percentile", () => {
  const h = oneTo(100);
  assert.deepEqual(percentileConfidenceInterval(h, 50, 0), { lowUs: 50, highUs: 50 });
});

Deno.test("the interval contains the reported percentile", () => {
  for (const n of [1, 2, 7, 100, 1_001, 20_000]) {
    const h = skewed(n);
    for (const q of [1, 50, 90, 99, 99.9, 99.99, 100]) {
      const { lowUs, highUs } = percentileConfidenceInterval(h, q);
      const value = h.getValueAtPercentile(q);
      assert.ok(lowUs <= value && value <= highUs, `n=${n} p${q}: ${lowUs}..${highUs} vs ${value}`);
    }
  }
});

Deno.test("the interval widens as the sample shrinks", () => {
  const widths = [50, 500, 5_000, 50_000].map((n) => {
    const { lowUs, highUs } = percentileConfidenceInterval(skewed(n), 90);
    return highUs - lowUs;
  });
  for (let i = 1; i < widths.length; i++) {
    assert.ok(widths[i] < widths[i - 1], `widths ${widths.join(", ")}`);
  }
});

Deno.test("a single value is its own interval at every percentile", () => {
  const h = histogramOf([777]);
  for (const q of [1, 50, 99.9, 100]) {
    assert.deepEqual(percentileConfidenceInterval(h, q), { lowUs: 777, highUs: 777 });
  }
});

Deno.test("near 100 the interval reaches the maximum; at 100 it is the maximum", () => {
  const h = oneTo(1_000);
  // p99.999 of 1000: rank 999.99 ∓ 0.196, so 999 .. 1000.
  assert.deepEqual(percentileConfidenceInterval(h, 99.999), { lowUs: 999, highUs: 1000 });
  assert.deepEqual(percentileConfidenceInterval(h, 100), { lowUs: 1000, highUs: 1000 });
});

Deno.test("an empty histogram gives 0 .. 0", () => {
  assert.deepEqual(percentileConfidenceInterval(createHistogram(), 99), { lowUs: 0, highUs: 0 });
});

Deno.test("percentiles outside (0, 100] and negative z are rejected", () => {
  const h = oneTo(10);
  for (const q of [0, -1, 100.1, NaN]) {
    assert.throws(() => percentileConfidenceInterval(h, q), RangeError);
  }
  assert.throws(() => percentileConfidenceInterval(h, 50, -1), RangeError);
  assert.throws(() => percentileConfidenceInterval(h, 50, Infinity), RangeError);
});
