import assert from "node:assert/strict";
import { planRecorder } from "../../../runner/recorder/plan_recorder.ts";
import { mixLabels } from "../../../runner/plan/requests/mod.ts";
import { planSchedule } from "../../../runner/schedule/plan_schedule.ts";
import { parseText } from "../../_helpers/plan_fixtures.ts";

const PLAN = `name: recorded
target: http://127.0.0.1:1
requests:
  - name: health
    path: /health
    check: { status: 200 }
  - journey: order
    steps:
      - { name: create, method: POST, path: /orders }
      - { name: read, path: /orders/1 }
load:
  stages: [{ rate: 10/s, duration: 1s }, { rate: 20/s, duration: 1s }]
`;

Deno.test("planRecorder() records per stage and label, journeys timed and checks counted", () => {
  const { plan, issues } = parseText(PLAN);
  assert.ok(plan, JSON.stringify(issues));
  const mix = mixLabels(plan);
  const recorded = planRecorder(plan, mix, planSchedule(plan, mix).stages).finish(2000);
  assert.equal(recorded.stages.length, 2);
  for (const stage of recorded.stages) {
    assert.deepEqual(stage.labels.map((l) => l.label), [
      "health",
      "order / create",
      "order / read",
    ]);
    assert.deepEqual(stage.journeys?.map((j) => j.name), ["order"]);
    assert.deepEqual(stage.labels.map((l) => l.checks?.length), [1, undefined, undefined]);
  }
});
