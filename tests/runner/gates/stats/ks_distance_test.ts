import assert from "node:assert/strict";
import { ksDistance } from "../../../../runner/gates/stats/ks_distance.ts";
import { createHistogram, type Histogram } from "../../../../runner/hdr/mod.ts";

function histogramOf(values: readonly number[]): Histogram {
  const h = createHistogram();
  for (const v of values) h.recordValue(v);
  return h;
}

/** Deterministic values in [1, max] (below 2048 each value has its own bucket). */
function sample(seed: number, n: number, max: number): number[] {
  let state = seed;
  return Array.from({ length: n }, () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return 1 + Math.floor((state / 2147483648) ** 2 * max);
  });
}

/** The textbook definition on raw values: max |F1(x) − F2(x)| over every observed x. */
function bruteForceDistance(a: readonly number[], b: readonly number[]): number {
  const cdf = (xs: readonly number[], x: number) => xs.filter((v) => v <= x).length / xs.length;
  let distance = 0;
  for (const x of [...a, ...b]) distance = Math.max(distance, Math.abs(cdf(a, x) - cdf(b, x)));
  return distance;
}

Deno.test("identical histograms are at distance 0", () => {
  const a = histogramOf(sample(1, 500, 1_000));
  const copy = createHistogram();
  copy.add(a);
  assert.equal(ksDistance(a, copy), 0);
  assert.equal(ksDistance(a, a), 0);
});

Deno.test("the same distribution at a different count is at distance 0", () => {
  const a = histogramOf([100, 200, 300]);
  const b = createHistogram();
  for (const v of [100, 200, 300]) b.recordValueWithCount(v, 7);
  assert.equal(ksDistance(a, b), 0);
});

Deno.test("disjoint histograms are at distance 1 in either order", () => {
  const low = histogramOf([10, 20, 30]);
  const high = histogramOf([40, 50]);
  assert.equal(ksDistance(low, high), 1);
  assert.equal(ksDistance(high, low), 1);
});

Deno.test("hand-computed distances", () => {
  // F_a = .25 .5 .75 1 at 100..400; F_b = .25 .5 .75 1 at 300..600: largest gap 0.5.
  assert.equal(
    ksDistance(histogramOf([100, 200, 300, 400]), histogramOf([300, 400, 500, 600])),
    0.5,
  );
  // 3:1 against 1:3 over the same two values: gap 0.5 at 100, then 0.
  const a = createHistogram();
  a.recordValueWithCount(100, 3);
  a.recordValue(200);
  const b = createHistogram();
  b.recordValue(100);
  b.recordValueWithCount(200, 3);
  assert.equal(ksDistance(a, b), 0.5);
  // One value moved: {1,2,3,4} against {1,2,3,5}: gap 0.25 at 4.
  assert.equal(ksDistance(histogramOf([1, 2, 3, 4]), histogramOf([1, 2, 3, 5])), 0.25);
});

Deno.test("the distance equals the raw-value definition on sampled data", () => {
  for (const [seedA, seedB, nA, nB] of [[1, 2, 300, 300], [3, 4, 50, 700], [5, 5, 100, 101]]) {
    const a = sample(seedA, nA, 800);
    const b = sample(seedB, nB, 600);
    const expected = bruteForceDistance(a, b);
    assert.ok(Math.abs(ksDistance(histogramOf(a), histogramOf(b)) - expected) < 1e-12);
  }
});

Deno.test("the distance is symmetric", () => {
  const pairs: [number[], number[]][] = [
    [sample(7, 200, 1_000), sample(8, 300, 900)],
    [[5], [5, 6, 7]],
    [[1_000_000, 5], [70_000, 5, 5]],
  ];
  for (const [x, y] of pairs) {
    assert.equal(
      ksDistance(histogramOf(x), histogramOf(y)),
      ksDistance(histogramOf(y), histogramOf(x)),
    );
  }
});

Deno.test("values in the same bucket count as equal", () => {
  // 2048 and 2049 share a bucket, so the histograms cannot tell them apart.
  assert.equal(ksDistance(histogramOf([2048]), histogramOf([2049])), 0);
  assert.equal(ksDistance(histogramOf([2048]), histogramOf([2050])), 1);
});

Deno.test("empty histograms: both empty is 0, one empty is 1", () => {
  const full = histogramOf([1, 2, 3]);
  assert.equal(ksDistance(createHistogram(), createHistogram()), 0);
  assert.equal(ksDistance(createHistogram(), full), 1);
  assert.equal(ksDistance(full, createHistogram()), 1);
});
