import assert from "node:assert/strict";
import { createHistogram } from "../../../runner/hdr/mod.ts";
import {
  exponentialIndex,
  exponentialUpperBound,
  OTLP_RELATIVE_ERROR,
  OTLP_SCALE,
  toExponentialBuckets,
} from "../../../reporters/export/otlp_buckets.ts";
import { mulberry32 } from "../../_helpers/seeded_random.ts";

/** Every HDR bucket's highest value from 1 µs to 1 hour, about 40 per doubling. */
function hdrHighestValuesUs(): number[] {
  const h = createHistogram();
  for (let v = 1; v < 3_600_000_000; v = Math.ceil(v * 1.017)) h.recordValue(v);
  return [...h.recordedValues()].map((r) => r.valueUs);
}

Deno.test("scale 8 has 256 buckets a doubling and a relative error of 0.271%", () => {
  assert.equal(OTLP_SCALE, 8);
  assert.equal(exponentialIndex(2, 8) - exponentialIndex(1, 8), 256);
  assert.ok(Math.abs(OTLP_RELATIVE_ERROR - 0.002711) < 1e-6);
});

Deno.test("a power of two is the upper bound of its bucket, exactly", () => {
  for (let e = -30; e <= 12; e++) {
    const index = exponentialIndex(2 ** e, OTLP_SCALE);
    assert.equal(index, e * 256 - 1);
    assert.equal(exponentialUpperBound(index, OTLP_SCALE), 2 ** e);
    assert.equal(exponentialIndex(2 ** e * (1 + 2 ** -40), OTLP_SCALE), e * 256);
  }
});

Deno.test("every HDR bucket's highest value lies in the bucket the index names", () => {
  for (const us of hdrHighestValuesUs()) {
    const seconds = us / 1e6;
    const index = exponentialIndex(seconds, OTLP_SCALE);
    const lower = exponentialUpperBound(index - 1, OTLP_SCALE);
    const upper = exponentialUpperBound(index, OTLP_SCALE);
    assert.ok(
      lower < seconds && seconds <= upper,
      `${us} µs: bucket ${index} (${lower}, ${upper}]`,
    );
    assert.ok(upper / seconds - 1 < OTLP_RELATIVE_ERROR, `${us} µs: ${upper / seconds - 1}`);
  }
});

Deno.test("values that are not finite and positive have no bucket", () => {
  for (const v of [0, -1, NaN, Infinity]) {
    assert.throws(() => exponentialIndex(v, OTLP_SCALE), RangeError);
  }
});

Deno.test("HDR buckets keep every count: zeros in the zero count, the rest dense", () => {
  const random = mulberry32(47);
  const h = createHistogram();
  h.recordValueWithCount(0, 5);
  for (let i = 0; i < 5_000; i++) h.recordValue(Math.round(200 * Math.exp(random() * 9)));
  const hdr = [...h.recordedValues()].map((r) => ({
    lowestUs: r.lowestUs,
    highestUs: r.valueUs,
    count: r.count,
  }));
  const buckets = toExponentialBuckets(hdr, OTLP_SCALE);
  assert.equal(buckets.zeroCount, 5);
  assert.equal(buckets.counts.reduce((a, b) => a + b, 0) + buckets.zeroCount, h.totalCount);
  assert.ok(buckets.counts[0] > 0 && buckets.counts.at(-1)! > 0, "trimmed to recorded buckets");
  const lowest = hdr.find((b) => b.highestUs > 0)!;
  assert.equal(buckets.offset, exponentialIndex(lowest.highestUs / 1e6, OTLP_SCALE));
  assert.equal(
    buckets.offset + buckets.counts.length - 1,
    exponentialIndex(h.maxValue / 1e6, OTLP_SCALE),
  );
  // Below each exponential boundary the count is the HDR count of the values up to it.
  let cumulative = buckets.zeroCount;
  buckets.counts.forEach((count, i) => {
    cumulative += count;
    const upper = exponentialUpperBound(buckets.offset + i, OTLP_SCALE);
    const hdrBelow = hdr.filter((b) => b.highestUs / 1e6 <= upper).reduce((a, b) => a + b.count, 0);
    assert.equal(cumulative, hdrBelow, `bucket ${buckets.offset + i}`);
  });
});

Deno.test("no HDR bucket gives no exponential bucket", () => {
  assert.deepEqual(toExponentialBuckets([], OTLP_SCALE), {
    scale: OTLP_SCALE,
    zeroCount: 0,
    offset: 0,
    counts: [],
  });
});
