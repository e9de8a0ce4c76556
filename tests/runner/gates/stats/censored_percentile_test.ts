import assert from "node:assert/strict";
import { binomialLowerTail, binomialUpperTail } from "../../../../runner/gates/stats/binomial.ts";
import {
  censoredPercentile,
  confidenceRanks,
} from "../../../../runner/gates/stats/censored_percentile.ts";
import { createHistogram } from "../../../../runner/hdr/mod.ts";

function ones(n: number, from = 1) {
  const h = createHistogram();
  for (let v = from; v < from + n; v++) h.recordValue(v);
  return h;
}

Deno.test("confidenceRanks() are the tightest ranks with at most 2.5% outside on each side", () => {
  for (const [n, q] of [[100, 0.5], [1000, 0.99], [20_000, 0.999], [37, 0.9]] as const) {
    const { low, high } = confidenceRanks(n, q);
    // x(low) exceeds the quantile with probability <= 2.5%, and low + 1 would break that.
    assert.ok(binomialLowerTail(n, q, low - 1) <= 0.025, `n ${n} q ${q} low ${low}`);
    assert.ok(binomialLowerTail(n, q, low) > 0.025);
    assert.ok(binomialUpperTail(n, q, high) <= 0.025, `n ${n} q ${q} high ${high}`);
    assert.ok(binomialUpperTail(n, q, high - 1) > 0.025);
    assert.ok(low < n * q && n * q < high);
  }
  assert.deepEqual(confidenceRanks(100, 0.5), { low: 40, high: 61 });
});

Deno.test("too few requests leave a side unbounded: 50 requests cannot bound p99.99 from above", () => {
  assert.equal(confidenceRanks(50, 0.9999).high, 51);
  const p = censoredPercentile(ones(50), 0, 99.99);
  assert.equal(p.highUs, Infinity);
  assert.equal(p.estimateUs, 50);
  // And 3 requests cannot bound a median from below.
  assert.equal(confidenceRanks(3, 0.5).low, 0);
  assert.equal(censoredPercentile(ones(3), 0, 50).lowUs, 0);
});

Deno.test("failed requests count beyond every value: a percentile among them is Infinity", () => {
  const h = ones(95);
  const p99 = censoredPercentile(h, 5, 99);
  assert.equal(p99.n, 100);
  assert.equal(p99.estimateUs, Infinity);
  assert.equal(p99.highUs, Infinity);
  const p50 = censoredPercentile(h, 5, 50);
  assert.equal(p50.estimateUs, 50, "ranks count the failures: the median of 100 is rank 50");
  // Without the failures the same histogram reads a lower median: failures never flatter.
  assert.equal(censoredPercentile(h, 0, 50).estimateUs, 48);
});

Deno.test("the lower end is the lowest value its bucket can hold, the upper end the highest", () => {
  const h = createHistogram();
  h.recordValueWithCount(100_000, 1000); // one bucket of width 64 µs at 100 ms
  const p = censoredPercentile(h, 0, 50);
  assert.ok(p.lowUs < 100_000 && p.lowUs > 99_900, String(p.lowUs));
  assert.ok(p.highUs >= 100_000 && p.highUs < 100_100, String(p.highUs));
});
