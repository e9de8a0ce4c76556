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
  assert.ok(line.interval95[1] - line.interval95[0] < 0.02);
  assert.ok(line.pValue < 1e-12);
  assert.equal(trendLine(values, 0, 1), undefined);
});
