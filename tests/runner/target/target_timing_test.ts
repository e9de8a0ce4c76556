import assert from "node:assert/strict";
import {
  decideResponse,
  faultKindAt,
  isChosen,
  MAX_DELAY_MS,
  seededUnit,
  stallWaitMs,
  TARGET_DEFAULTS,
  type TargetConfig,
} from "../../../runner/target/mod.ts";
import * as capacity from "../../../runner/target/target_timing.ts";

const config = (over: Partial<TargetConfig>): TargetConfig => ({
  ...TARGET_DEFAULTS,
  mode: "hello",
  ...over,
});

Deno.test("stallWaitMs holds a request arriving in the last stallMs of a period until it ends", () => {
  // period 10 s, stall 2 s: frozen during [8 s, 10 s) of every period, counted from the start.
  assert.equal(stallWaitMs(0, 10_000, 2_000), 0);
  assert.equal(stallWaitMs(7_999, 10_000, 2_000), 0);
  assert.equal(stallWaitMs(8_000, 10_000, 2_000), 2_000);
  assert.equal(stallWaitMs(9_250, 10_000, 2_000), 750);
  assert.equal(stallWaitMs(10_000, 10_000, 2_000), 0);
  assert.equal(stallWaitMs(38_500, 10_000, 2_000), 1_500);
  assert.equal(stallWaitMs(-5, 10_000, 2_000), 0);
});

Deno.test("isChosen without a seed picks exactly floor(n * frac) of the first n, evenly", () => {
  for (const frac of [0, 0.001, 0.1, 0.25, 1 / 3, 0.37, 0.5, 0.999, 1]) {
    for (const n of [1, 7, 1_000, 10_007]) {
      let chosen = 0;
      for (let i = 0; i < n; i++) if (isChosen(i, frac)) chosen++;
      assert.equal(chosen, Math.floor(n * frac), `frac ${frac}, n ${n}`);
    }
  }
  const picks = [];
  for (let i = 0; i < 100; i++) if (isChosen(i, 0.1)) picks.push(i);
  assert.deepEqual(picks, [9, 19, 29, 39, 49, 59, 69, 79, 89, 99]);
});

Deno.test("isChosen with a seed is reproducible and close to frac", () => {
  const run = (seed: number) => Array.from({ length: 100_000 }, (_, i) => isChosen(i, 0.1, seed));
  const a = run(7);
  assert.deepEqual(a, run(7));
  assert.notDeepEqual(a.slice(0, 200), run(8).slice(0, 200));
  const share = a.filter(Boolean).length / a.length;
  assert.ok(Math.abs(share - 0.1) < 0.005, `share ${share}`);
});

Deno.test("seededUnit stays in [0, 1) and spreads evenly", () => {
  const buckets = new Array(10).fill(0);
  for (let i = 0; i < 50_000; i++) {
    const u = seededUnit(123, i);
    assert.ok(u >= 0 && u < 1);
    buckets[Math.floor(u * 10)]++;
  }
  for (const count of buckets) assert.ok(Math.abs(count - 5_000) < 300, `bucket ${count}`);
});

Deno.test("faultKindAt takes the kinds in turn among the chosen requests", () => {
  const kinds = ["500", "reset", "garbage", "close"] as const;
  const faults = [];
  for (let i = 0; i < 20; i++) if (isChosen(i, 0.5)) faults.push(faultKindAt(i, 0.5, kinds));
  assert.deepEqual(faults.slice(0, 5), ["500", "reset", "garbage", "close", "500"]);
  const seeded = new Set(Array.from({ length: 200 }, (_, i) => faultKindAt(i, 1, kinds, 3)));
  assert.equal(seeded.size, 4);
});

Deno.test("decideResponse gives each mode its known latency", () => {
  assert.equal(decideResponse(config({ mode: "hello", delayMs: 50 }), 0, 0).delayMs, 0);
  assert.equal(decideResponse(config({ mode: "fixed", delayMs: 25 }), 9, 1e6).delayMs, 25);
  const stall = config({ mode: "stall", stallMs: 200, periodMs: 400, delayMs: 5 });
  assert.equal(decideResponse(stall, 0, 100).delayMs, 5);
  assert.equal(decideResponse(stall, 1, 350).delayMs, 55);
  const bimodal = config({ mode: "bimodal", frac: 0.5, slowMs: 90, delayMs: 1 });
  assert.deepEqual([0, 1, 2, 3].map((i) => decideResponse(bimodal, i, 0).delayMs), [1, 90, 1, 90]);
  const trend = config({ mode: "trend", delayMs: 10, growthMsPerSec: 2 });
  assert.equal(decideResponse(trend, 0, 30_000).delayMs, 70);
  assert.equal(decideResponse(trend, 0, 1e12).delayMs, MAX_DELAY_MS);
  const firstN = config({ mode: "first-n", firstN: 2, delayMs: 1, slowMs: 80 });
  assert.deepEqual([0, 1, 2, 3].map((i) => decideResponse(firstN, i, 0).delayMs), [1, 1, 80, 80]);
});

Deno.test("decideResponse in faults mode fails the chosen fraction and delays every answer", () => {
  const faults = config({ mode: "faults", faultFrac: 0.25, faultKinds: ["reset"], delayMs: 3 });
  const decisions = [0, 1, 2, 3].map((i) => decideResponse(faults, i, 0));
  assert.deepEqual(decisions.map((d) => d.fault), [undefined, undefined, undefined, "reset"]);
  assert.ok(decisions.every((d) => d.delayMs === 3));
});

Deno.test("CapacityQueue serves c at a time, each for the service time, first come first served", () => {
  const { CapacityQueue } = capacity;
  // Two servers, 10 ms each: four at once take 10, 10, 20, 20 ms.
  const burst = new CapacityQueue(2, 10);
  assert.deepEqual([0, 0, 0, 0].map((t) => burst.admit(t)), [10, 10, 20, 20]);
  // Below capacity (one every 6 ms against 5 ms of capacity per request): nobody waits.
  const below = new CapacityQueue(2, 10);
  assert.deepEqual([0, 6, 12, 18, 24, 30].map((t) => below.admit(t)), [10, 10, 10, 10, 10, 10]);
  // Above it (one every 2.5 ms): one server takes the even requests back to back from 0 ms, the
  // other the odd ones from 2.5 ms, so request k waits 2.5·(k − k mod 2) ms before its 10 ms.
  const above = new CapacityQueue(2, 10);
  const delays = Array.from({ length: 8 }, (_, k) => above.admit(k * 2.5));
  assert.deepEqual(delays, [10, 10, 15, 15, 20, 20, 25, 25]);
});

Deno.test("decideResponse in capacity mode reads the server's queue; capacityPerSec is servers / delay", () => {
  const { CapacityQueue, capacityPerSec } = capacity;
  const c = config({ mode: "capacity", servers: 3, delayMs: 4 });
  assert.equal(capacityPerSec(c), 750);
  const queue = new CapacityQueue(c.servers, c.delayMs);
  const delays = [0, 0, 0, 0].map((_, i) => decideResponse(c, i, 0, queue).delayMs);
  assert.deepEqual(delays, [4, 4, 4, 8]);
});
