import assert from "node:assert/strict";
import { bestRamp, trendLine } from "../../../../runner/gates/history/_trend.ts";

Deno.test("bestRamp finds an exact ramp's ends between its flats", () => {
  const values = Array.from(
    { length: 60 },
    (_, i) => i < 20 ? 100 : i > 40 ? 140 : 100 + 2 * (i - 20),
  );
  const ramp = bestRamp(values, 0, 60);
  assert.deepEqual([ramp?.start, ramp?.end], [20, 40]);
  assert.ok(ramp!.rss < 1e-6);
});

Deno.test("bestRamp of an exact step is a ramp of one run", () => {
  const values = Array.from({ length: 40 }, (_, i) => (i < 25 ? 10 : 20));
  const ramp = bestRamp(values, 0, 40);
  assert.deepEqual([ramp?.start, ramp?.end], [24, 25]);
});

Deno.test("trendLine's ends, relative change and slope test follow the line", () => {
  // y = 100 + i over 0..50 with a ±1 zigzag: the ends 100 and 150, +50%.
  const values = Array.from({ length: 51 }, (_, i) => 100 + i + (i % 2 === 0 ? 1 : -1));
  const line = trendLine(values, 0, 50)!;
  assert.ok(Math.abs(line.fittedStart - 100) < 0.1 && Math.abs(line.fittedEnd - 150) < 0.1);
  assert.ok(Math.abs(line.relativeChange - 0.5) < 0.002);
  assert.ok(line.interval95[0] < line.relativeChange && line.relativeChange < line.interval95[1]);
  assert.ok(line.interval95[1] - line.interval95[0] < 0.03);
  assert.ok(line.pValue < 1e-12);
  assert.ok(Math.abs(line.absoluteChange - 50) < 1e-9);
  const [low, high] = line.absoluteInterval95;
  assert.ok(low < 50 && 50 < high && high - low < 2.5, `${low} to ${high}`);
  assert.equal(trendLine(values, 0, 1), undefined);
});

Deno.test("trendLine's interval of a steep fall stays above −100%: it is taken on the log scale", () => {
  // 100 down to 8 over 12 runs, ±15 noise: a straight line's interval of the fall, over its
  // start, reaches past −100%; the log ratio's converted back cannot.
  const noise = [15, -15, 10, -10, 15, -5, 5, -15, 10, -10, 5, -5, 0];
  const values = noise.map((n, i) => 100 - 92 * i / 12 + n * (1 - i / 13));
  const line = trendLine(values, 0, 12)!;
  assert.ok(line.relativeChange < -0.8, String(line.relativeChange));
  const [low, high] = line.interval95;
  assert.ok(low > -1 && low < line.relativeChange && line.relativeChange < high, `${low}, ${high}`);
  const linearLow = (line.absoluteInterval95[0]) / line.fittedStart;
  assert.ok(
    linearLow < -1,
    `the straight interval reaches ${linearLow}: this test needs it past -1`,
  );
});
