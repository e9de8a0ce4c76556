import assert from "node:assert/strict";
import {
  createHistogram,
  type Histogram,
  maxRecordableUs,
  type RecordedValue,
} from "../../../runner/hdr/_hdr.ts";
import {
  assertSameHistogram,
  bucketsOf,
  histogramOf,
} from "../../_helpers/histogram_assertions.ts";

/** Deterministic latency-like values spread over 0 us .. 1 hour. */
function valuesFrom(seed: number, n: number): number[] {
  return Array.from({ length: n }, (_, i) => {
    const x = Math.sin(seed * 1e4 + i) * 1e4;
    return Math.floor((x - Math.floor(x)) ** 6 * 3_600_000_000);
  });
}

function recordAll(values: number[]): Histogram {
  const h = createHistogram();
  for (const v of values) h.recordValue(v);
  return h;
}

Deno.test("merging histograms equals recording all their values into one", () => {
  const a = valuesFrom(1, 30_000);
  const b = valuesFrom(2, 20_000);
  const merged = recordAll(a);
  merged.add(recordAll(b));
  assertSameHistogram(merged, recordAll([...a, ...b]));
  const reversed = recordAll(b);
  reversed.add(recordAll(a));
  assertSameHistogram(reversed, merged);
});

Deno.test("merging keeps min and max when either side is empty", () => {
  const h = histogramOf([[5, 1], [900_000, 2]]);
  h.add(createHistogram());
  assert.equal(h.minNonZeroValue, 5);
  assert.equal(h.maxValue, 900_095); // top of the bucket [899_584, 900_095]
  const empty = createHistogram();
  empty.add(h);
  assertSameHistogram(empty, h);
});

Deno.test("merging accepts any Histogram implementation through its recorded values", () => {
  const source = histogramOf([[3, 2], [70_000, 5]]);
  const foreign: Histogram = {
    ...source,
    recordedValues: (): IterableIterator<RecordedValue> => source.recordedValues(),
  };
  const h = histogramOf([[3, 1]]);
  h.add(foreign);
  assert.deepEqual(bucketsOf(h), [[3, 3], [70_015, 5]]);
});

Deno.test("max, min and percentiles report bucket bounds as the reference implementations do", () => {
  const h = histogramOf([[12_345, 1]]);
  assert.equal(h.maxValue, 12_351);
  assert.equal(h.minNonZeroValue, 12_344);
  assert.equal(h.getValueAtPercentile(50), 12_351);
  assert.equal(h.getValueAtPercentile(0), 12_344);
  assert.deepEqual(bucketsOf(h), [[12_351, 1]]);
});

Deno.test("an empty or all-zero histogram reports zeros", () => {
  const empty = createHistogram();
  assert.deepEqual(
    [
      empty.totalCount,
      empty.maxValue,
      empty.minNonZeroValue,
      empty.mean,
      empty.getValueAtPercentile(99),
    ],
    [0, 0, 0, 0, 0],
  );
  const zeros = histogramOf([[0, 3]]);
  assert.deepEqual([zeros.totalCount, zeros.maxValue, zeros.minNonZeroValue], [3, 0, 0]);
});

Deno.test("reset empties counts, min and max", () => {
  const h = histogramOf([[10, 1], [2_000_000, 4]]);
  h.reset();
  assert.deepEqual(bucketsOf(h), []);
  assert.deepEqual([h.totalCount, h.maxValue, h.minNonZeroValue], [0, 0, 0]);
  h.recordValue(42);
  assert.deepEqual([h.maxValue, h.minNonZeroValue, h.getValueAtPercentile(100)], [42, 42, 42]);
});

Deno.test("values outside integers 0..maxRecordableUs and bad counts are refused", () => {
  const h = createHistogram();
  for (const bad of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, maxRecordableUs + 1]) {
    assert.throws(() => h.recordValue(bad), RangeError, String(bad));
  }
  for (const badCount of [0, -2, 0.5, 2 ** 53]) {
    assert.throws(() => h.recordValueWithCount(10, badCount), RangeError, String(badCount));
  }
  assert.throws(() => h.getValueAtPercentile(100.1), RangeError);
  assert.equal(h.totalCount, 0);
  h.recordValue(maxRecordableUs);
  assert.equal(h.maxValue, maxRecordableUs);
  assert.equal(maxRecordableUs, 3_600_809_983);
});

Deno.test("recorded values can be iterated in nested loops", () => {
  const h = histogramOf([[1, 1], [2, 2], [3, 3]]);
  const pairs = [];
  for (const outer of h.recordedValues()) {
    for (const inner of h.recordedValues()) pairs.push(outer.count * inner.count);
  }
  assert.deepEqual(pairs, [1, 2, 3, 2, 4, 6, 3, 6, 9]);
});

Deno.test("mean weights each bucket's midpoint by its count", () => {
  const h = histogramOf([[1_000, 1], [3_000, 3]]); // 3_000 shares the bucket [3_000, 3_001]
  assert.equal(h.mean, (1_000 + 3 * 3_001) / 4);
});
