import assert from "node:assert/strict";
import { apportionMs } from "../../../reporters/junit/apportion_ms.ts";
import { mulberry32 } from "../../_helpers/seeded_random.ts";

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

Deno.test("apportionMs() shares a total out in proportion to the weights, exactly", () => {
  assert.deepEqual(apportionMs(8_000, [2_000, 6_000, 8_000]), [1_000, 3_000, 4_000]);
  assert.deepEqual(apportionMs(10_000, [5_000, 5_000, 10_000]), [2_500, 2_500, 5_000]);
  // The milliseconds left over go to the largest remainders, the earlier case on a tie.
  assert.deepEqual(apportionMs(1_000, [1, 1, 1]), [334, 333, 333]);
  assert.deepEqual(apportionMs(1_000, [1, 2]), [333, 667]);
});

Deno.test("apportionMs() adds up to the rounded total whatever the weights", () => {
  const random = mulberry32(7);
  for (let trial = 0; trial < 200; trial++) {
    const n = 1 + Math.floor(random() * 12);
    const weights = Array.from({ length: n }, () => (random() < 0.2 ? 0 : random() * 1e5));
    const total = random() * 1e6;
    const shares = apportionMs(total, weights);
    assert.equal(shares.length, n);
    assert.equal(sum(shares), Math.round(total), JSON.stringify({ total, weights }));
    assert.ok(shares.every((s) => Number.isInteger(s) && s >= 1), JSON.stringify(shares));
  }
});

Deno.test("apportionMs() gives a case of no weight 1 ms, and shares evenly when no case weighs", () => {
  assert.deepEqual(apportionMs(1_000, [0, 1_000]), [1, 999]);
  assert.deepEqual(apportionMs(9, [0, 0, 0]), [3, 3, 3]);
  assert.deepEqual(apportionMs(2, [1, 1, 1]), [1, 1, 0], "too little to give each a millisecond");
  assert.deepEqual(apportionMs(-5, [1]), [0]);
  assert.deepEqual(apportionMs(100, []), []);
});
