import assert from "node:assert/strict";
import { detectChanges } from "../../../../runner/gates/history/mod.ts";
import { realSpread, scaledNoisySeries, stepLevels } from "./_real_noise.ts";

// How small a step the detector finds is set by the runs' spread, not by the detector: this
// machine's 4-second runs spread 8.6% in p50 (and spike in the tails), too much for a 5% step
// (detect_changes_test.ts holds each metric to the step its spread allows). With the same real
// residuals scaled to a 2% spread, a steadier runner's or longer runs', the issue's 5% step in
// 120 runs is found within ±2 runs, and 500 stationary runs give no false change.
const SPREAD = 0.02;
const SEEDS = 60;

for (const metric of ["p50", "p99"] as const) {
  Deno.test(`a 5% step in ${metric}'s real noise scaled to a 2% spread is found within ±2 runs`, () => {
    assert.ok(realSpread(metric) > 0.05, "the real spread is wider than the one tested here");
    let found = 0;
    let elsewhere = 0;
    for (let seed = 1; seed <= SEEDS; seed++) {
      const changes = detectChanges(
        scaledNoisySeries(metric, stepLevels(120, 60, 1.05), seed, SPREAD),
      );
      if (changes.some((c) => c.kind === "step" && Math.abs(c.index - 60) <= 2)) found++;
      elsewhere += changes.filter((c) => Math.abs(c.index - 60) > 2).length;
    }
    // Measured: 58 of 60 for both.
    assert.ok(found >= 55, `found ${found} of ${SEEDS}`);
    assert.ok(elsewhere <= 2, `${elsewhere} changes away from run 60`);
  });

  Deno.test(`500 stationary runs of ${metric}'s real noise scaled to a 2% spread give no change`, () => {
    let falses = 0;
    for (let seed = 1; seed <= 20; seed++) {
      falses += detectChanges(scaledNoisySeries(metric, stepLevels(500, 0, 1), 1000 + seed, SPREAD))
        .length;
    }
    assert.equal(falses, 0);
  });
}
