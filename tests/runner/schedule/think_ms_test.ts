import assert from "node:assert/strict";
import { thinkMs, thinkStream, uniformAt } from "../../../runner/schedule/mod.ts";
import { sourceStream } from "../../../runner/schedule/mod.ts";

const RANGE = { minMs: 100, maxMs: 500 };

Deno.test("a fixed think time is itself, and no think is 0, for every journey and step", () => {
  for (const n of [0, 1, 99, 2 ** 40]) {
    assert.equal(thinkMs(3, n, 1, { minMs: 50, maxMs: 50 }), 50);
    assert.equal(thinkMs(3, n, 5, undefined), 0);
  }
});

Deno.test("a think range is a pure function of (seed, n, k): the same seed thinks the same", () => {
  const first = Array.from({ length: 100 }, (_, n) => thinkMs(42, n, 2, RANGE));
  const again = Array.from({ length: 100 }, (_, n) => thinkMs(42, n, 2, RANGE));
  assert.deepEqual(again, first);
  const otherSeed = Array.from({ length: 100 }, (_, n) => thinkMs(43, n, 2, RANGE));
  const otherStep = Array.from({ length: 100 }, (_, n) => thinkMs(42, n, 3, RANGE));
  assert.ok(otherSeed.filter((v, n) => v !== first[n]).length > 90, "another seed draws anew");
  assert.ok(otherStep.filter((v, n) => v !== first[n]).length > 90, "another step draws anew");
  assert.ok(new Set(first).size > 90, "each journey draws its own");
});

Deno.test("a think range is drawn uniformly between its ends", () => {
  const count = 20_000;
  const drawn = Array.from({ length: count }, (_, n) => thinkMs(7, n, 1, RANGE));
  assert.ok(drawn.every((v) => v >= 100 && v < 500));
  // Each of four equal bins holds a quarter of the draws, give or take 5 standard errors (≈ 1.5%).
  const bins = [0, 0, 0, 0];
  for (const v of drawn) bins[Math.floor((v - 100) / 100)]++;
  for (const b of bins) assert.ok(Math.abs(b / count - 0.25) < 0.015, `bins ${bins}`);
});

Deno.test("a think draw has its own stream: no var's or data source's draw equals it", () => {
  for (const k of [1, 31]) {
    assert.ok(thinkStream(k) > sourceStream(100_000));
    const think = thinkMs(9, 5, k, { minMs: 0, maxMs: 1 });
    assert.equal(think, uniformAt(9, thinkStream(k), 5));
    assert.notEqual(think, uniformAt(9, k, 5), "var k's draw");
  }
});
