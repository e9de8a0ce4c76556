import assert from "node:assert/strict";
import {
  binomialInterval,
  binomialLowerTail,
  binomialUpperTail,
} from "../../../../runner/gates/stats/binomial.ts";
import { logGamma } from "../../../../runner/gates/stats/log_gamma.ts";

const close = (a: number, b: number, rel = 1e-9) =>
  assert.ok(Math.abs(a - b) <= rel * Math.max(Math.abs(b), 1e-300), `${a} vs ${b}`);

Deno.test("binomial tails match exact sums on small cases, on both sides of the mean", () => {
  const n = 20;
  const p = 0.3;
  const pmf = (k: number) =>
    Math.exp(logGamma(n + 1) - logGamma(k + 1) - logGamma(n - k + 1)) *
    p ** k * (1 - p) ** (n - k);
  for (let k = 0; k <= n; k++) {
    let low = 0;
    for (let i = 0; i <= k; i++) low += pmf(i);
    let high = 0;
    for (let i = k; i <= n; i++) high += pmf(i);
    close(binomialLowerTail(n, p, k), low, 1e-9);
    close(binomialUpperTail(n, p, k), high, 1e-9);
  }
});

Deno.test("binomial tails stay exact far out, where 1 - cdf would be 0", () => {
  // No request beyond p99.9 in 2,995 and 3,000 requests: 0.999^n either side of 0.05.
  close(binomialLowerTail(2995, 0.001, 0), 0.999 ** 2995);
  assert.ok(binomialLowerTail(3000, 0.001, 0) < 0.05);
  assert.ok(binomialLowerTail(2900, 0.001, 0) > 0.05);
  // 1,000 of 5,000 requests beyond p99.9: the chance (about 1e-1900) is below any double.
  const p = binomialUpperTail(5000, 0.001, 1000);
  assert.ok(p >= 0 && p < 1e-300, String(p));
  // 20 beyond where 5 are expected: about 3.4e-7 (Poisson(5) gives 3.3e-7).
  const q = binomialUpperTail(5000, 0.001, 20);
  assert.ok(q > 3.2e-7 && q < 3.6e-7, String(q));
  assert.equal(binomialUpperTail(10, 0.5, 0), 1);
  assert.equal(binomialLowerTail(10, 0.5, 10), 1);
});

Deno.test("binomialInterval() is the exact Clopper-Pearson interval", () => {
  // No error in 1,000 requests: the upper end solves 0.975^... (1 - p)^1000 = 0.025.
  const none = binomialInterval(0, 1000);
  assert.equal(none.low, 0);
  close(none.high, 1 - 0.025 ** (1 / 1000), 1e-9);
  // 20 of 10,000: the ends are where the tails reach 2.5%.
  const some = binomialInterval(20, 10_000);
  close(binomialUpperTail(10_000, some.low, 20), 0.025, 1e-6);
  close(binomialLowerTail(10_000, some.high, 20), 0.025, 1e-6);
  assert.ok(some.low < 0.002 && 0.002 < some.high);
  assert.deepEqual(binomialInterval(5, 5).high, 1);
  assert.throws(() => binomialInterval(6, 5), RangeError);
});
