import assert from "node:assert/strict";
import { RequestMix } from "../../../runner/schedule/request_mix.ts";

/** How many of the first `n` scheduled requests each label gets. */
function counts(mix: RequestMix, labels: number, n: number): number[] {
  const out = new Array<number>(labels).fill(0);
  for (let i = 0; i < n; i++) out[mix.labelIndexAt(i)]++;
  return out;
}

Deno.test("RequestMix splits by weight: 9 and 1 send 90% and 10%", () => {
  assert.deepEqual(counts(new RequestMix([9, 1]), 2, 1000), [900, 100]);
});

Deno.test("RequestMix splits weights whose sum overflows as evenly as small ones", () => {
  // 1e308 + 1e308 is Infinity: summed as they are, every share read 0 and b took all 40.
  assert.deepEqual(counts(new RequestMix([1e308, 1e308]), 2, 40), [20, 20]);
  assert.deepEqual(
    counts(new RequestMix([Number.MAX_VALUE, Number.MAX_VALUE, Number.MAX_VALUE]), 3, 300),
    [100, 100, 100],
  );
  // Huge and tiny weights split as their ratio does.
  const threeToOne = counts(new RequestMix([3, 1]), 2, 400);
  assert.deepEqual(counts(new RequestMix([3e307, 1e307]), 2, 400), threeToOne);
  assert.deepEqual(counts(new RequestMix([3e-300, 1e-300]), 2, 400), threeToOne);
});

Deno.test("RequestMix refuses a mix without a positive, finite weight", () => {
  assert.throws(() => new RequestMix([]), RangeError);
  assert.throws(() => new RequestMix([1, 0]), RangeError);
  assert.throws(() => new RequestMix([1, Infinity]), RangeError);
});
