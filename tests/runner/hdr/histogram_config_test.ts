import assert from "node:assert/strict";
import { createHistogram, maxRecordableUs } from "../../../runner/hdr/_hdr.ts";
import {
  bucketGeometry,
  bucketRangeAt,
  countsIndexOf,
  HISTOGRAM_CONFIG,
} from "../../../runner/hdr/histogram_config.ts";
import { bucketsOf } from "../../_helpers/histogram_assertions.ts";

Deno.test("the project config is frozen at 1 us .. 1 hour with 3 significant digits", () => {
  assert.deepEqual(HISTOGRAM_CONFIG, {
    valueUnit: "us",
    lowestDiscernibleValue: 1,
    highestTrackableValue: 3_600_000_000,
    significantValueDigits: 3,
  });
  assert.ok(Object.isFrozen(HISTOGRAM_CONFIG));
  assert.throws(() => {
    (HISTOGRAM_CONFIG as { significantValueDigits: number }).significantValueDigits = 2;
  }, TypeError);
});

Deno.test("bucket math puts every value in the same bucket as hdr-histogram-js", () => {
  const geometry = bucketGeometry(HISTOGRAM_CONFIG);
  const values = new Set<number>();
  for (let v = 0; v <= 5_000; v++) values.add(v);
  for (let k = 1; 2 ** k <= maxRecordableUs; k++) {
    for (const v of [2 ** k - 1, 2 ** k, 2 ** k + 1, 3 * 2 ** (k - 1)]) values.add(v);
  }
  for (let i = 0; i < 5_000; i++) values.add(Math.floor((i / 5_000) ** 4 * maxRecordableUs));
  values.add(maxRecordableUs);
  const h = createHistogram();
  const expected = new Map<number, number>();
  for (const v of [...values].filter((v) => v <= maxRecordableUs)) {
    h.recordValue(v);
    const highest = bucketRangeAt(geometry, countsIndexOf(geometry, v)).highest;
    expected.set(highest, (expected.get(highest) ?? 0) + 1);
  }
  assert.deepEqual(bucketsOf(h), [...expected].sort(([a], [b]) => a - b));
});

Deno.test("bucket ranges tile the value axis and map back to their index", () => {
  const geometry = bucketGeometry(HISTOGRAM_CONFIG);
  assert.equal(geometry.countsLength, 23_552);
  let nextLowest = 0;
  for (let index = 0; index < geometry.countsLength; index++) {
    const { lowest, highest } = bucketRangeAt(geometry, index);
    assert.equal(lowest, nextLowest);
    assert.equal(countsIndexOf(geometry, lowest), index);
    assert.equal(countsIndexOf(geometry, highest), index);
    nextLowest = highest + 1;
  }
  assert.equal(nextLowest - 1, 2 ** 32 - 1);
});

Deno.test("geometry of a 4-digit nanosecond layout matches HdrHistogram sizing", () => {
  const geometry = bucketGeometry({
    lowestDiscernibleValue: 1,
    highestTrackableValue: 3_600_000_000_000,
    significantValueDigits: 4,
  });
  assert.equal(geometry.subBucketCount, 32_768);
  assert.equal(geometry.countsLength, 29 * 16_384); // 28 buckets to reach 2^42 > 3.6e12, plus one
  const lowestOf1000 = bucketGeometry({ ...HISTOGRAM_CONFIG, lowestDiscernibleValue: 1000 });
  assert.equal(lowestOf1000.unitMagnitude, 9); // a unit of 512, not 1000
});

Deno.test("invalid layouts are refused", () => {
  const bad = [
    { ...HISTOGRAM_CONFIG, lowestDiscernibleValue: 0 },
    { ...HISTOGRAM_CONFIG, highestTrackableValue: 1 },
    { ...HISTOGRAM_CONFIG, significantValueDigits: 6 },
    { ...HISTOGRAM_CONFIG, highestTrackableValue: 2 ** 64 },
  ];
  for (const layout of bad) assert.throws(() => bucketGeometry(layout), RangeError);
});
