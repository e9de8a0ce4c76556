import assert from "node:assert/strict";
import {
  failFastScopes,
  windowPlanned,
} from "../../../../runner/gates/fail_fast/fail_fast_scope.ts";
import { Schedule } from "../../../../runner/schedule/build_schedule.ts";
import { parseText } from "../../../_helpers/plan_fixtures.ts";

Deno.test("a labelled SLO's planned count is never below what the schedule sends it, and close", () => {
  for (const arrival of ["constant", "poisson"]) {
    const { plan } = parseText(`name: t
target: http://127.0.0.1:8080
requests:
  - { name: a, path: /a, weight: 7 }
  - { name: b, path: /b, weight: 2.5 }
  - { name: c, path: /c, weight: 0.5 }
load:
  arrival: ${arrival}
  seed: 7
  stages:
    - { rate: 333/s, duration: 3s, warmup: true }
    - { rate: 1777/s, duration: 7s }
    - { ramp: 10/s -> 5k/s, over: 9s }
slo: ['p99 < 10ms for "a"', 'p99 < 10ms for "b" at 1777/s', 'error_rate < 1% for "c"', "max < 1s"]
`);
    assert.ok(plan);
    // What the schedule really sends each label in each stage.
    const sent = plan.load.stages.map(() => [0, 0, 0]);
    const cursor = new Schedule({
      arrival: plan.load.arrival,
      seed: plan.load.seed,
      stages: plan.load.stages,
      weights: plan.requests.map((r) => r.weight),
    }).cursor();
    for (; !cursor.done; cursor.advance()) sent[cursor.stageIndex][cursor.labelIndex]++;
    const scopes = failFastScopes(plan);
    assert.deepEqual(scopes.map((s) => s.stages), [[1, 2], [1], [1, 2], [1, 2]]);
    const truth = [
      sent[1][0] + sent[2][0],
      sent[1][1],
      sent[1][2] + sent[2][2],
      sent[1].concat(sent[2]).reduce((a, b) => a + b, 0),
    ];
    scopes.forEach((s, i) => {
      assert.ok(s.planned >= truth[i], `${arrival} ${s.slo.text}: ${s.planned} < ${truth[i]}`);
      assert.ok(s.planned <= truth[i] + 30, `${arrival} ${s.slo.text}: ${s.planned} ≫ ${truth[i]}`);
    });
    assert.equal(scopes[3].planned, truth[3]); // every label: exact
  }
});

Deno.test("a windowed SLO's seconds are those wholly within its stages", () => {
  const { plan } = parseText(`name: t
target: http://127.0.0.1:8080
requests: [{ path: / }]
load:
  stages:
    - { rate: 10/s, duration: 1500ms, warmup: true }
    - { rate: 20/s, duration: 3s }
    - { rate: 10/s, duration: 2s }
slo: ["p99 < 10ms over 2s", "p99 < 10ms over 1s at 20/s", "error_rate < 1%"]
`);
  assert.ok(plan);
  const [every, at, whole] = failFastScopes(plan);
  // 1.5 s to 4.5 s, then 4.5 s to 6.5 s: seconds 2, 3, 5 (1 and 4 straddle a boundary, 6 ends after).
  assert.deepEqual([...every.seconds!].sort(), [2, 3, 5]);
  assert.equal(every.windowSeconds, 2);
  assert.deepEqual([...at.seconds!].sort(), [2, 3]);
  assert.equal(whole.seconds, undefined);
});

Deno.test("a shard's window counts against at most the whole fleet's requests in it", () => {
  const every = { everyLabel: true, share: 1 };
  assert.equal(windowPlanned(180, 180, every, 1), 180);
  assert.equal(windowPlanned(180, 180, every, 4), 724);
  // One label of a quarter: from every label's count, with the mix's slack.
  const quarter = { everyLabel: false, share: 0.25 };
  assert.equal(windowPlanned(45, 45, quarter, 1), 45);
  const planned = windowPlanned(45, 180, quarter, 4);
  assert.ok(planned >= 181 && planned <= 192, String(planned));
});

Deno.test("a plan with journeys decides no SLO early: its steps outnumber its arrivals", () => {
  const { plan } = parseText(`name: t
target: http://127.0.0.1:8080
requests:
  - { name: a, path: /a }
  - journey: order
    weight: 1
    steps: [{ path: /x }, { path: /y }]
load: { stages: [{ rate: 100/s, duration: 5s }] }
slo: ["max < 1s", 'p99 < 1s for "a"', "journey.p99 < 1s"]
`);
  assert.ok(plan);
  assert.deepEqual(failFastScopes(plan), []);
});
