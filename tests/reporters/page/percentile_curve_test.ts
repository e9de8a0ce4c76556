import assert from "node:assert/strict";
import {
  percentileAxis,
  percentileCurve,
  percentileX,
} from "../../../reporters/page/percentile_curve.ts";
import { createHistogram } from "../../../runner/hdr/mod.ts";
import { pointsUs } from "../../_helpers/gate_fixtures.ts";

Deno.test("percentileAxis() shows 0% to 99.99% and max, and a nine more per factor of ten beyond 10^5 values", () => {
  const labels = (count: number) => percentileAxis(count).ticks.map((t) => t.label);
  const base = ["0%", "50%", "90%", "99%", "99.9%", "99.99%"];
  assert.deepEqual(labels(50), [...base, "max"]);
  assert.deepEqual(labels(99_999), [...base, "max"]);
  assert.deepEqual(labels(100_000), [...base, "99.999%", "max"]);
  assert.deepEqual(labels(10 ** 9), [...base, "99.999%", "99.9999%", "max"]);
  assert.equal(percentileAxis(20_000).maxX, 100_000);
});

Deno.test("percentileX() places a percentile at 1 / (1 - p)", () => {
  assert.equal(percentileX(0), 1);
  assert.equal(percentileX(50), 2);
  assert.equal(percentileX(90), 10);
  assert.equal(percentileX(99.9), 1000);
});

Deno.test("percentileX() puts four to seven nines exactly on their ticks", () => {
  const ticks = percentileAxis(1e6).ticks.map((t) => t.x);
  for (const [percentile, x] of [[99.99, 1e4], [99.999, 1e5], [99.9999, 1e6], [99.99999, 1e7]]) {
    assert.equal(percentileX(percentile), x, `p${percentile}`);
  }
  assert.ok(ticks.includes(percentileX(99.999)) && ticks.includes(percentileX(99.9999)));
  assert.equal(percentileX(99.123), 1 / (1 - 0.99123), "other percentiles stay where they are");
});

Deno.test("percentileCurve() reads the histogram's percentiles along the axis and ends at its max", () => {
  const h = pointsUs([[500, 990], [1_500, 9], [2_000, 1]]); // exact below 2048 µs
  const axis = percentileAxis(h.totalCount);
  const curve = percentileCurve(h, axis);
  const at = (x: number) => curve.find(([px]) => Math.abs(px - x) / x < 1e-6)?.[1];
  assert.equal(at(2), 0.5, "p50 is 0.5 ms");
  assert.equal(at(10), 0.5, "p90 is 0.5 ms");
  assert.equal(at(1_000), 1.5, "p99.9 is 1.5 ms");
  assert.deepEqual(curve.at(-1), [axis.maxX, 2]);
  for (let i = 1; i < curve.length; i++) {
    assert.ok(curve[i][0] > curve[i - 1][0], "x ascends");
    assert.ok(curve[i][1] >= curve[i - 1][1], "latency never falls");
  }
  assert.deepEqual(percentileCurve(createHistogram(), axis), []);
});
