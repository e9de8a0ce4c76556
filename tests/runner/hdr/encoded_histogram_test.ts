import assert from "node:assert/strict";
import { createHistogram, maxRecordableUs } from "../../../runner/hdr/_hdr.ts";
import {
  mergeEncodedHistograms,
  msToRecordableUs,
  SUMMARY_PERCENTILES,
  toEncodedHistogram,
} from "../../../runner/hdr/encoded_histogram.ts";
import { decodeHistogram } from "../../../runner/hdr/hdr_codec.ts";
import {
  assertSameHistogram,
  histogramOf,
  seededHistogram,
} from "../../_helpers/histogram_assertions.ts";

Deno.test("toEncodedHistogram() reads its summary off the histogram it encodes", () => {
  // 5000 us falls in a 4 us wide bucket [5000, 5003]: max and high percentiles report its top.
  const h = histogramOf([[100, 50], [1000, 40], [5000, 10]]);
  const e = toEncodedHistogram(h);
  assert.equal(e.count, 100);
  assert.equal(e.minUs, 100);
  assert.equal(e.maxUs, 5003);
  // Bucket midpoints weighted by count: (100·50 + 1000·40 + 5002·10) / 100.
  assert.equal(e.meanUs, 950.2);
  assert.deepEqual(e.percentilesUs, {
    "50": 100,
    "90": 1000,
    "99": 5003,
    "99.9": 5003,
    "99.99": 5003,
  });
  assertSameHistogram(decodeHistogram(e.hdr), h);
});

Deno.test("toEncodedHistogram() percentiles match the histogram for a spread distribution", () => {
  const h = seededHistogram(11, 5000);
  const e = toEncodedHistogram(h);
  for (const p of SUMMARY_PERCENTILES) {
    assert.equal(e.percentilesUs[String(p)], h.getValueAtPercentile(p), `p${p}`);
  }
  assert.equal(e.maxUs, h.maxValue);
  assert.equal(e.minUs, h.minNonZeroValue);
  assert.equal(e.meanUs, Math.round(h.mean * 1000) / 1000);
});

Deno.test("toEncodedHistogram() of an empty histogram is all zeros", () => {
  const e = toEncodedHistogram(createHistogram());
  assert.deepEqual(
    { count: e.count, minUs: e.minUs, maxUs: e.maxUs, meanUs: e.meanUs, p: e.percentilesUs },
    {
      count: 0,
      minUs: 0,
      maxUs: 0,
      meanUs: 0,
      p: { "50": 0, "90": 0, "99": 0, "99.9": 0, "99.99": 0 },
    },
  );
  assert.equal(decodeHistogram(e.hdr).totalCount, 0);
});

Deno.test("mergeEncodedHistograms() equals recording everything in one histogram", () => {
  const parts = [seededHistogram(1, 3000), seededHistogram(2, 500), histogramOf([[7, 1]])];
  const whole = createHistogram();
  for (const p of parts) whole.add(p);
  const merged = mergeEncodedHistograms(parts.map(toEncodedHistogram));
  assertSameHistogram(decodeHistogram(merged.hdr), whole);
  assert.deepEqual(merged, toEncodedHistogram(whole));
  assert.equal(merged.count, 3501);
});

Deno.test("mergeEncodedHistograms() of nothing is an empty histogram", () => {
  const merged = mergeEncodedHistograms([]);
  assert.equal(merged.count, 0);
  assert.equal(decodeHistogram(merged.hdr).totalCount, 0);
});

Deno.test("msToRecordableUs() rounds to the nearest microsecond", () => {
  assert.equal(msToRecordableUs(1.2345), 1235);
  assert.equal(msToRecordableUs(1.2344), 1234);
  assert.equal(msToRecordableUs(0.0005), 1);
  assert.equal(msToRecordableUs(0.0004), 0);
  assert.equal(msToRecordableUs(2500), 2_500_000);
});

Deno.test("msToRecordableUs() clamps negatives to 0 and huge values to the histogram's top", () => {
  assert.equal(msToRecordableUs(-3), 0);
  assert.ok(Object.is(msToRecordableUs(-0.0004), 0), "never -0");
  assert.equal(msToRecordableUs(1e12), maxRecordableUs);
  assert.equal(msToRecordableUs(Infinity), maxRecordableUs);
  assert.equal(msToRecordableUs(maxRecordableUs / 1000), maxRecordableUs);
  const h = createHistogram();
  h.recordValue(msToRecordableUs(1e12)); // recordable: does not throw
  assert.equal(h.totalCount, 1);
});
