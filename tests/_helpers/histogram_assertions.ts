/**
 * Shared assertions and fixtures for the recorder tests.
 *
 * @module
 */
import { mulberry32 } from "./seeded_random.ts";
import assert from "node:assert/strict";
import { createHistogram, type Histogram } from "../../runner/hdr/mod.ts";

/**
 * Percentiles checked wherever two histograms must agree.
 *
 * @example
 * ```ts
 * import { PERCENTILES } from "./histogram_assertions.ts";
 * PERCENTILES.includes(99.9); // true
 * ```
 */
export const PERCENTILES: readonly number[] = [
  0,
  0.1,
  1,
  10,
  25,
  33.3,
  50,
  66.6,
  75,
  90,
  95,
  99,
  99.5,
  99.9,
  99.95,
  99.99,
  99.999,
  100,
];

/**
 * The non-empty buckets of a histogram as [valueUs, count] pairs.
 *
 * @example
 * ```ts
 * import { createHistogram } from "../../runner/hdr/mod.ts";
 * import { bucketsOf } from "./histogram_assertions.ts";
 * bucketsOf(createHistogram()); // []
 * ```
 */
export function bucketsOf(h: Histogram): Array<[number, number]> {
  return [...h.recordedValues()].map(({ valueUs, count }) => [valueUs, count]);
}

/**
 * Asserts two histograms hold the same count in every bucket and report the same statistics.
 *
 * @example
 * ```ts
 * import { createHistogram } from "../../runner/hdr/mod.ts";
 * import { assertSameHistogram } from "./histogram_assertions.ts";
 * assertSameHistogram(createHistogram(), createHistogram());
 * ```
 */
export function assertSameHistogram(actual: Histogram, expected: Histogram): void {
  assert.deepEqual(bucketsOf(actual), bucketsOf(expected));
  assert.equal(actual.totalCount, expected.totalCount);
  assert.equal(actual.maxValue, expected.maxValue);
  assert.equal(actual.minNonZeroValue, expected.minNonZeroValue);
  assert.equal(actual.mean, expected.mean);
  for (const p of PERCENTILES) {
    assert.equal(actual.getValueAtPercentile(p), expected.getValueAtPercentile(p), `p${p}`);
  }
}

/**
 * A histogram holding the given [valueUs, count] pairs.
 *
 * @example
 * ```ts
 * import { histogramOf } from "./histogram_assertions.ts";
 * histogramOf([[100, 2], [250, 1]]).totalCount; // 3
 * ```
 */
export function histogramOf(pairs: Iterable<readonly [number, number]>): Histogram {
  const h = createHistogram();
  for (const [valueUs, count] of pairs) h.recordValueWithCount(valueUs, count);
  return h;
}

/**
 * A deterministic histogram of latency-like values (log-spread over 1 us .. 1 hour, with ties).
 *
 * @example
 * ```ts
 * import { seededHistogram } from "./histogram_assertions.ts";
 * seededHistogram(7, 1000).totalCount; // 1000
 * ```
 */
export function seededHistogram(seed: number, samples: number): Histogram {
  const random = mulberry32(seed);
  const h = createHistogram();
  for (let i = 0; i < samples; i++) {
    const valueUs = Math.floor(Math.exp(random() * Math.log(3_600_000_000)));
    h.recordValue(random() < 0.02 ? 0 : valueUs);
  }
  return h;
}
