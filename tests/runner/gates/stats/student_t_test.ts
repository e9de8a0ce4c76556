import assert from "node:assert/strict";
import {
  regularizedIncompleteBeta,
  tCdf,
  tQuantile,
} from "../../../../runner/gates/stats/student_t.ts";

function assertClose(actual: number, expected: number, relative: number, what = ""): void {
  assert.ok(
    Math.abs(actual - expected) <= relative * Math.abs(expected),
    `${what} ${actual} is not within ${relative} (relative) of ${expected}`,
  );
}

const NORMAL_999 = 3.090232306167813;

Deno.test("tQuantile matches the printed t table", () => {
  const table: [number, number, number][] = [
    [0.999, 1, 318.309],
    [0.999, 2, 22.327],
    [0.999, 3, 10.215],
    [0.999, 5, 5.893],
    [0.999, 10, 4.144],
    [0.999, 29, 3.396],
    [0.999, 120, 3.160],
    [0.975, 10, 2.228],
    [0.975, 30, 2.042],
    [0.95, 1, 6.314],
    [0.9, 4, 1.533],
  ];
  for (const [p, df, printed] of table) {
    assert.ok(Math.abs(tQuantile(p, df) - printed) <= 5e-4, `t(${p}, ${df}) = ${tQuantile(p, df)}`);
  }
});

Deno.test("tQuantile matches the closed forms for 1 and 2 degrees of freedom", () => {
  for (const p of [0.55, 0.75, 0.9, 0.975, 0.999, 0.99999]) {
    // df = 1 is the Cauchy distribution; df = 2 has t = (2p − 1) / √(2p(1 − p)).
    assertClose(tQuantile(p, 1), Math.tan(Math.PI * (p - 0.5)), 1e-9, `t(${p}, 1)`);
    assertClose(tQuantile(p, 2), (2 * p - 1) / Math.sqrt(2 * p * (1 - p)), 1e-9, `t(${p}, 2)`);
  }
});

Deno.test("tQuantile approaches the normal quantile as df grows", () => {
  assertClose(tQuantile(0.999, 1e6), NORMAL_999 + 8.1502e-6, 1e-9);
  assertClose(tQuantile(0.999, Infinity), NORMAL_999, 1e-7);
  assertClose(tQuantile(0.975, Infinity), 1.959963984540054, 1e-7);
  assert.ok(tQuantile(0.999, 1e4) > tQuantile(0.999, 1e6));
});

Deno.test("tQuantile falls as df grows and rises with p", () => {
  let previous = Infinity;
  for (const df of [0.5, 1, 2, 3, 4, 5, 7, 10, 15, 20, 29, 50, 100, 1_000]) {
    const t = tQuantile(0.999, df);
    assert.ok(t < previous, `t(0.999, ${df}) = ${t} is not below ${previous}`);
    previous = t;
  }
  previous = 0;
  for (const p of [0.6, 0.7, 0.8, 0.9, 0.95, 0.99, 0.999, 0.9999]) {
    const t = tQuantile(p, 7);
    assert.ok(t > previous, `t(${p}, 7) = ${t} is not above ${previous}`);
    previous = t;
  }
});

Deno.test("tQuantile is antisymmetric about p = 0.5", () => {
  assert.equal(tQuantile(0.5, 4), 0);
  for (const df of [1, 3, 12.5]) {
    for (const p of [0.6, 0.9, 0.999]) assertClose(tQuantile(1 - p, df), -tQuantile(p, df), 1e-9);
  }
});

Deno.test("tCdf inverts tQuantile, also for fractional df", () => {
  for (const df of [0.5, 1, 2.5, 9, 29, 400]) {
    for (const p of [0.01, 0.3, 0.6, 0.95, 0.999]) {
      assertClose(tCdf(tQuantile(p, df), df), p, 1e-9, `df ${df} p ${p}`);
    }
  }
});

Deno.test("tCdf matches the Cauchy CDF at df = 1 and is 1/2 at 0", () => {
  for (const t of [-50, -1, -0.2, 0.3, 1, 7]) {
    assertClose(tCdf(t, 1), 0.5 + Math.atan(t) / Math.PI, 1e-12, `t=${t}`);
  }
  assert.equal(tCdf(0, 6), 0.5);
  assert.equal(tCdf(Infinity, 6), 1);
  assert.equal(tCdf(-Infinity, 6), 0);
});

Deno.test("regularizedIncompleteBeta matches its closed forms and symmetries", () => {
  for (const x of [0.01, 0.2, 0.5, 0.8, 0.99]) {
    assertClose(regularizedIncompleteBeta(x, 1, 1), x, 1e-12, `I_${x}(1, 1)`);
    assertClose(regularizedIncompleteBeta(x, 3, 1), x ** 3, 1e-12, `I_${x}(3, 1)`);
    assertClose(regularizedIncompleteBeta(x, 1, 4), 1 - (1 - x) ** 4, 1e-12, `I_${x}(1, 4)`);
    const a = 2.5;
    const b = 7;
    assertClose(
      regularizedIncompleteBeta(x, a, b),
      1 - regularizedIncompleteBeta(1 - x, b, a),
      1e-10,
      `I_${x}(${a}, ${b})`,
    );
  }
  assertClose(regularizedIncompleteBeta(0.5, 40, 40), 0.5, 1e-12);
  assert.equal(regularizedIncompleteBeta(0, 2, 3), 0);
  assert.equal(regularizedIncompleteBeta(1, 2, 3), 1);
});

Deno.test("invalid probabilities and degrees of freedom are rejected", () => {
  for (const p of [0, 1, -0.1, 1.5, NaN]) assert.throws(() => tQuantile(p, 5), RangeError);
  for (const df of [0, -1, NaN]) {
    assert.throws(() => tQuantile(0.9, df), RangeError);
    assert.throws(() => tCdf(1, df), RangeError);
  }
  assert.throws(() => tCdf(NaN, 3), RangeError);
  assert.throws(() => regularizedIncompleteBeta(1.1, 1, 1), RangeError);
  assert.throws(() => regularizedIncompleteBeta(0.5, 0, 1), RangeError);
});
