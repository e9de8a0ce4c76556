import assert from "node:assert/strict";
import { createHistogram } from "../../../../runner/hdr/mod.ts";
import { toEncodedHistogram } from "../../../../runner/hdr/encoded_histogram.ts";
import {
  floorPercentiles,
  measuredFloor,
  percentileOf,
} from "../../../../runner/result/read/measured_floor.ts";

/** 1000 values: `base` for the first 1000 - `tail`, then `tailUs` for the rest. */
function hist(base: number, tailUs: number, tail: number) {
  const h = createHistogram();
  h.recordValueWithCount(base, 1000 - tail);
  if (tail > 0) h.recordValueWithCount(tailUs, tail);
  return toEncodedHistogram(h);
}

Deno.test("the floor is the larger of engine stalls and platform hiccups at that percentile", () => {
  const health = { engineStall: hist(20, 900, 5), platformHiccup: hist(50, 3000, 2) };
  assert.deepEqual(measuredFloor(health, 99), {
    percentile: 99,
    engineStallUs: 20,
    platformHiccupUs: 50,
    floorUs: 50,
  });
  const at999 = measuredFloor(health, 99.9);
  assert.equal(at999.engineStallUs, 900);
  assert.equal(at999.platformHiccupUs, 3001); // the top of 3000's 2 us bucket
  assert.equal(at999.floorUs, 3001);
});

Deno.test("a percentile the summary lacks is read off the histogram itself", () => {
  const h = hist(100, 7000, 10); // p99.5 falls in the tail of 10 in 1000
  assert.equal(h.percentilesUs["99.5"], undefined);
  assert.equal(percentileOf(h, 99.5), 7003);
  assert.equal(percentileOf(toEncodedHistogram(createHistogram()), 99.9), 0);
});

Deno.test("floors are reported at p99, p99.9 and the percentiles the SLOs name", () => {
  assert.deepEqual(floorPercentiles({ slos: [] }), [99, 99.9]);
  assert.deepEqual(
    floorPercentiles({
      slos: [
        { text: "p99.99 < 20ms at 1k/s", line: 1 },
        { text: "99.95%ile < 5ms", line: 2 },
        { text: "p50 < 1ms", line: 3 },
        { text: "error_rate < 1%", line: 4 },
      ],
    }),
    [99, 99.9, 99.95, 99.99],
  );
  // A journey's or the first byte's percentile is not the response time's floor.
  const other = [{ text: "journey.p99.95 < 1s", line: 1 }, { text: "ttfb.p99.8 < 5ms", line: 2 }];
  assert.deepEqual(floorPercentiles({ slos: other }), [99, 99.9]);
});
