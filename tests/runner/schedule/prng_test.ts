import assert from "node:assert/strict";
import { deriveSeed, Prng } from "../../../runner/schedule/prng.ts";

Deno.test("Prng repeats its sequence for a seed and spreads evenly over [0, 1)", () => {
  const a = new Prng(99);
  const b = new Prng(99);
  const buckets = new Array(10).fill(0);
  for (let i = 0; i < 100_000; i++) {
    const x = a.next();
    assert.equal(x, b.next());
    assert.ok(x >= 0 && x < 1);
    buckets[Math.floor(x * 10)]++;
  }
  for (const n of buckets) assert.ok(Math.abs(n - 10_000) < 500, `bucket ${n}`);
});

Deno.test("Prng.nextExponential() has mean 1", () => {
  const p = new Prng(5);
  let sum = 0;
  for (let i = 0; i < 100_000; i++) sum += p.nextExponential();
  assert.ok(Math.abs(sum / 100_000 - 1) < 0.02);
});

Deno.test("deriveSeed() gives each stage its own stream", () => {
  const seeds = new Set([0, 1, 2, 3, 4].map((part) => deriveSeed(7, part)));
  assert.equal(seeds.size, 5);
  assert.equal(deriveSeed(7, 1), deriveSeed(7, 1));
});
