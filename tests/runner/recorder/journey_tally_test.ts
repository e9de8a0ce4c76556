import assert from "node:assert/strict";
import { JourneyTally } from "../../../runner/recorder/journey_tally.ts";
import { decodeHistogram } from "../../../runner/hdr/hdr_codec.ts";

const LABELS = ["GET /", "order / create", "order / read", "pay / go"];
const SHAPES = [
  { name: "order", stepLabels: [1, 2] },
  { name: "pay", stepLabels: [3] },
];

Deno.test("journey times of completed journeys only, per stage and journey; think summed beside them", () => {
  const t = new JourneyTally(2, SHAPES, LABELS);
  t.ended(0, 0, "completed", 20, 50);
  t.ended(0, 0, "completed", 30, 50);
  t.ended(0, 0, "failed", 1, 0);
  t.ended(0, 0, "stopped", 2, 0);
  t.ended(1, 1, "completed", 5, 0);
  const [order, pay] = t.results(0);
  assert.deepEqual([order.started, order.completed, order.failed], [4, 2, 1]);
  assert.equal(order.thinkMs, 100);
  const values = [...decodeHistogram(order.journey.hdr).recordedValues()].map((v) => v.valueUs);
  assert.equal(values.length, 2);
  assert.ok(Math.abs(values[0] - 20_000) <= 20 && Math.abs(values[1] - 30_000) <= 30);
  assert.deepEqual([pay.started, pay.journey.count], [0, 0]);
  assert.deepEqual(t.results(1)[1].started, 1);
});

Deno.test("a skipped step is counted on its own journey's step, in its stage", () => {
  const t = new JourneyTally(1, SHAPES, LABELS);
  t.skipped(0, 2);
  t.skipped(0, 2);
  t.skipped(0, 3);
  t.skipped(0, 0); // a single request is no step: nothing counted
  const [order, pay] = t.results(0);
  assert.deepEqual(order.steps.map((s) => s.skipped), [0, 2]);
  assert.deepEqual(pay.steps, [{ label: "pay / go", skipped: 1 }]);
});
