import assert from "node:assert/strict";
import {
  describeStage,
  matchStages,
  stagesMatch,
  unmatchedStages,
} from "../../../runner/history/stage_match.ts";

const steady = {
  index: 1,
  name: "steady",
  warmup: false,
  fromPerSec: 1000,
  toPerSec: 1000,
  durationMs: 10_000,
};

Deno.test("stages compare by place, rate and duration, not by name", () => {
  assert.ok(stagesMatch(steady, { ...steady, name: "renamed" }));
  for (
    const changed of [{ index: 2 }, { fromPerSec: 900 }, { toPerSec: 2000 }, { durationMs: 9999 }]
  ) {
    assert.ok(!stagesMatch(steady, { ...steady, ...changed }), JSON.stringify(changed));
  }
});

Deno.test("unmatchedStages() names the measured stages with no counterpart; warmups do not count", () => {
  const warmup = { ...steady, index: 0, name: "warm", warmup: true, fromPerSec: 10, toPerSec: 10 };
  assert.deepEqual(unmatchedStages([warmup, steady], [steady]), []);
  const ramp = { ...steady, index: 2, name: "climb", fromPerSec: 100, toPerSec: 1000 };
  assert.deepEqual(unmatchedStages([steady, ramp], [steady]), ["climb (100/s -> 1k/s over 10s)"]);
  assert.equal(describeStage(steady), "steady (1k/s for 10s)");
});

Deno.test("matchStages() finds once the stages no stored run has and whether they are the newest's", () => {
  const warmup = { ...steady, index: 0, name: "warm", warmup: true, fromPerSec: 10, toPerSec: 10 };
  const longer = { ...steady, durationMs: 20_000 };
  const ramp = { ...steady, index: 2, name: "climb", fromPerSec: 100, toPerSec: 1000 };
  const stored = (date: string, ...stages: (typeof steady)[]) => ({ date, stages });
  // An older run has the stage: nothing unmatched, but the newest has it no longer.
  assert.deepEqual(matchStages([steady], [stored("d1", steady), stored("d2", longer)]), {
    unmatched: [],
    newestDate: "d2",
    sameAsNewest: false,
  });
  // Warmups aside, both ways: a stage the newest run has and this one lacks is a change too.
  assert.equal(matchStages([warmup, steady], [stored("d1", steady)]).sameAsNewest, true);
  assert.equal(matchStages([steady], [stored("d1", steady, ramp)]).sameAsNewest, false);
  assert.deepEqual(matchStages([steady, ramp], [stored("d1", steady)]).unmatched, [
    "climb (100/s -> 1k/s over 10s)",
  ]);
  // No stored run: every measured stage unmatched, and nothing to restart.
  assert.deepEqual(matchStages([warmup, steady], []), {
    unmatched: ["steady (1k/s for 10s)"],
    sameAsNewest: true,
  });
});
