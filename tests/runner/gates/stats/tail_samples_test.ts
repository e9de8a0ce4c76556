import assert from "node:assert/strict";
import {
  isSufficient,
  requiredRequests,
  tailSamples,
} from "../../../../runner/gates/stats/tail_samples.ts";

const PERCENTILES = [50, 90, 95, 99, 99.5, 99.9, 99.95, 99.99, 99.999];

Deno.test("tailSamples counts the requests beyond a percentile without float noise", () => {
  assert.equal(tailSamples(10_000, 99.9), 10);
  assert.equal(tailSamples(100_000, 99.99), 10);
  assert.equal(tailSamples(500, 99), 5);
  assert.equal(tailSamples(1_000, 50), 500);
  assert.equal(tailSamples(3, 90), 0.3);
});

Deno.test("tailSamples at the ends: none beyond p100, all beyond p0, none of nothing", () => {
  assert.equal(tailSamples(1_234, 100), 0);
  assert.equal(tailSamples(1_234, 0), 1_234);
  assert.equal(tailSamples(0, 99), 0);
});

Deno.test("isSufficient switches exactly at requiredRequests", () => {
  for (const q of PERCENTILES) {
    for (const minTail of [1, 5, 10, 40]) {
      const needed = requiredRequests(q, minTail);
      assert.equal(isSufficient(needed, q, minTail), true, `p${q} min ${minTail} at ${needed}`);
      assert.equal(isSufficient(needed - 1, q, minTail), false, `p${q} min ${minTail} below`);
    }
  }
});

Deno.test("isSufficient agrees with tailSamples >= minTail", () => {
  for (const q of PERCENTILES) {
    for (const n of [0, 1, 9, 10, 19, 20, 99, 100, 999, 1_000, 9_999, 10_000, 99_999, 100_000]) {
      assert.equal(isSufficient(n, q), tailSamples(n, q) >= 10, `n=${n} p${q}`);
    }
  }
});

Deno.test("isSufficient defaults to 10 requests beyond the percentile", () => {
  assert.equal(isSufficient(10_000, 99.9), true);
  assert.equal(isSufficient(9_999, 99.9), false);
  assert.equal(isSufficient(1_000, 99.9, 1), true);
});

Deno.test("p100 is never sufficient; a zero tail requirement always is", () => {
  assert.equal(isSufficient(Number.MAX_SAFE_INTEGER, 100), false);
  assert.equal(isSufficient(0, 100, 0), true);
  assert.equal(isSufficient(0, 99.9, 0), true);
});

Deno.test("invalid counts, percentiles and tail requirements are rejected", () => {
  assert.throws(() => tailSamples(-1, 99), RangeError);
  assert.throws(() => tailSamples(1.5, 99), RangeError);
  assert.throws(() => tailSamples(10, 101), RangeError);
  assert.throws(() => isSufficient(10, NaN), RangeError);
  assert.throws(() => isSufficient(10, 99, -1), RangeError);
});
