import assert from "node:assert/strict";
import { fmtMs, fmtRate, niceLogValue, round4 } from "../../../reporters/browser/chart_kit.ts";

Deno.test("fmtMs() labels a latency in us below 1 ms, ms below 1 s, s from there", () => {
  assert.equal(fmtMs(0.25), "250us");
  assert.equal(fmtMs(12.345678), "12.35ms");
  assert.equal(fmtMs(1500), "1.5s");
  assert.equal(fmtMs(0), "0ms");
  assert.equal(fmtMs(null), "–");
  assert.equal(fmtMs(undefined), "–");
});

Deno.test("fmtRate() labels a rate per second in k and M", () => {
  assert.equal(fmtRate(250), "250/s");
  assert.equal(fmtRate(25_000), "25k/s");
  assert.equal(fmtRate(1_234_567), "1.235M/s");
  assert.equal(round4(0.000123456), 0.0001235);
});

Deno.test("niceLogValue() keeps round ticks, or only 1, 2 and 5 times a power of ten", () => {
  for (const v of [1, 2, 5, 0.1, 0.2, 500, 2000, 1e-3]) assert.ok(niceLogValue(v, true), String(v));
  for (const v of [3, 0.7, 400, 1.5, 250]) assert.ok(!niceLogValue(v, true), String(v));
  for (const v of [3, 0.7, 400, 9000]) assert.ok(niceLogValue(v, false), String(v));
  assert.ok(!niceLogValue(1.5, false));
  assert.ok(!niceLogValue(250, false));
});
