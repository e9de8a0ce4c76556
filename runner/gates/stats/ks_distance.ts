/**
 * The two-sample Kolmogorov–Smirnov distance between two latency histograms, computed exactly
 * from their buckets.
 *
 * @module
 */
import type { Histogram, RecordedValue } from "../../hdr/mod.ts";

/**
 * The largest gap between the empirical CDFs of `a` and `b`: max over x of |Fa(x) − Fb(x)|.
 * 0 for identical distributions, 1 for disjoint ones; 0 when both are empty and 1 when only one
 * is. Both histograms must share the project's bucket layout (every `createHistogram()` does),
 * so equal values fall into the same bucket; distances are therefore at bucket resolution.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createHistogram } from "../../hdr/mod.ts";
 * import { ksDistance } from "./ks_distance.ts";
 * const a = createHistogram();
 * const b = createHistogram();
 * a.recordValue(100);
 * a.recordValue(200);
 * b.recordValue(200);
 * assert.equal(ksDistance(a, b), 0.5);
 * ```
 */
export function ksDistance(a: Histogram, b: Histogram): number {
  const totalA = a.totalCount;
  const totalB = b.totalCount;
  if (totalA === 0 && totalB === 0) return 0;
  if (totalA === 0 || totalB === 0) return 1;
  const itA = a.recordedValues();
  const itB = b.recordedValues();
  let nextA = itA.next();
  let nextB = itB.next();
  let cumulativeA = 0;
  let cumulativeB = 0;
  let distance = 0;
  // Each step consumes at least one bucket, so the loop ends after at most |a| + |b| buckets.
  while (!nextA.done || !nextB.done) {
    const x = Math.min(valueOf(nextA), valueOf(nextB));
    if (!nextA.done && nextA.value.valueUs === x) {
      cumulativeA += nextA.value.count;
      nextA = itA.next();
    }
    if (!nextB.done && nextB.value.valueUs === x) {
      cumulativeB += nextB.value.count;
      nextB = itB.next();
    }
    distance = Math.max(distance, Math.abs(cumulativeA / totalA - cumulativeB / totalB));
  }
  return distance;
}

function valueOf(next: IteratorResult<RecordedValue>): number {
  return next.done ? Infinity : next.value.valueUs;
}
