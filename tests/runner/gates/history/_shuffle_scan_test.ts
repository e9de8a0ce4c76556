import assert from "node:assert/strict";
import {
  MAX_SHUFFLES,
  shuffleScan,
  shuffleScanPValue,
  shufflesFor,
} from "../../../../runner/gates/history/_shuffle_scan.ts";
import { noisySeries, stepLevels } from "./_real_noise.ts";

Deno.test("a one-run spike at the end of a side is never significant", () => {
  // 99 quiet runs and one 5× spike: the t-test's p at that split is tiny, a shuffle's is not.
  const values = noisySeries("p50", Array(100).fill(1), 1);
  values[99] *= 5;
  const p = shuffleScanPValue(values, 0, 99, 100, 0.001);
  assert.ok(p > 0.001, `p = ${p}`);
});

Deno.test("a clear step is as far out as no shuffle reaches", () => {
  const values = noisySeries("p50", stepLevels(120, 60, 1.3), 2);
  assert.equal(shuffleScanPValue(values, 0, 60, 120, 0.001), 2 / 3000);
});

Deno.test("a split no shuffle reaches is at the floor: p is 2 / (1 + shuffles), an upper bound", () => {
  const clear = shuffleScan(noisySeries("p50", stepLevels(120, 60, 1.3), 2), 0, 60, 120, 0.001);
  assert.deepEqual(clear, { pValue: 2 / 3000, shuffles: 2999, atFloor: true });
  // A step the shuffles do reach now and then: its p is a measured share, not the floor.
  let measured = 0;
  for (let seed = 1; seed <= 20; seed++) {
    const test = shuffleScan(noisySeries("p50", stepLevels(60, 30, 1.08), seed), 0, 30, 60, 0.001);
    if (test.atFloor) {
      assert.equal(test.pValue, 2 / (1 + test.shuffles), `seed ${seed}`);
    } else {
      measured++;
      assert.ok(test.pValue > 2 / (1 + test.shuffles), `seed ${seed}: ${JSON.stringify(test)}`);
    }
  }
  assert.ok(measured >= 5, `${measured} of 20 measured`);
});

Deno.test("constant values and empty sides give p = 1", () => {
  assert.equal(shuffleScanPValue(Array(50).fill(3), 0, 25, 50), 1);
  assert.equal(shuffleScanPValue([1, 2, 3], 0, 0, 3), 1);
  assert.equal(shuffleScanPValue([1, 2, 3], 0, 3, 3), 1);
});

Deno.test("the same split of the same values gives the same p: the shuffles are seeded", () => {
  const values = noisySeries("p99", stepLevels(80, 40, 1.5), 3);
  assert.equal(shuffleScanPValue(values, 0, 40, 80), shuffleScanPValue(values, 0, 40, 80));
});

Deno.test("a tiny maxPValue is resolved within 100 000 shuffles, no further", () => {
  assert.equal(shufflesFor(0.001), 9999);
  assert.equal(shufflesFor(0.0001), 99_999);
  assert.equal(shufflesFor(1e-9), MAX_SHUFFLES);
  const values = noisySeries("p50", stepLevels(120, 60, 1.3), 2);
  // No count of 100 000 shuffles can show p ≤ 1e-9: the scan stops at once, not significant.
  assert.ok(shuffleScanPValue(values, 0, 60, 120, 1e-9, shufflesFor(1e-9)) > 1e-9);
  assert.equal(shuffleScanPValue(values, 0, 60, 120, 1e-4, shufflesFor(1e-4)), 2 / 30_000);
});
