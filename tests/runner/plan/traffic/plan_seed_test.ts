import assert from "node:assert/strict";
import {
  drawsFromSeed,
  seedOfInstant,
  withRunSeed,
} from "../../../../runner/plan/traffic/plan_seed.ts";
import { parsePlanText } from "../../../../runner/plan/load_plan.ts";

function planOf(load: string) {
  const { plan, issues } = parsePlanText(`
name: p
target: http://127.0.0.1:1
vars: { id: uuid }
requests: [{ path: "/{{id}}" }]
load: { ${load} stages: [{ rate: 1/s, duration: 1s }] }
`);
  assert.ok(plan, issues.map((i) => i.message).join("\n"));
  return plan;
}

Deno.test("a plan without load.seed draws one per run; a written seed is kept", () => {
  const drawn = planOf("");
  assert.equal(drawn.load.seedPerRun, true);
  let draws = 0;
  const draw = () => ++draws * 1000;
  assert.equal(withRunSeed(drawn, { draw }).load.seed, 1000);
  assert.equal(withRunSeed(drawn, { draw }).load.seed, 2000, "each run draws afresh");
  const fixed = planOf("seed: 7,");
  assert.equal(fixed.load.seedPerRun, undefined);
  assert.equal(withRunSeed(fixed, { draw }).load.seed, 7);
  assert.equal(draws, 2, "a fixed seed draws nothing");
});

Deno.test("runs given one start instant take one seed from it, another instant another", () => {
  const plan = planOf("");
  const draw = () => assert.fail("a start instant is drawn from, not the random source");
  const at = Date.parse("2026-11-22T10:00:00Z");
  const a = withRunSeed(plan, { startAtEpochMs: at, draw }).load.seed;
  assert.equal(withRunSeed(plan, { startAtEpochMs: at, draw }).load.seed, a);
  assert.equal(a, seedOfInstant(at));
  assert.notEqual(withRunSeed(plan, { startAtEpochMs: at + 60_000, draw }).load.seed, a);
  assert.ok(Number.isInteger(a) && a >= 0 && a < 2 ** 32);
});

Deno.test("only poisson arrivals, vars, random or shuffled data and trace draw from the seed", () => {
  assert.equal(drawsFromSeed({ load: { arrival: "constant" } }), false);
  assert.equal(
    drawsFromSeed({ load: { arrival: "constant" }, data: [{ order: "sequence" }] }),
    false,
  );
  assert.equal(
    drawsFromSeed({ load: { arrival: "constant" }, data: [{ order: "shuffle" }] }),
    true,
  );
  assert.equal(drawsFromSeed({ load: { arrival: "poisson" } }), true);
  assert.equal(drawsFromSeed(planOf("")), true);
  assert.equal(drawsFromSeed({ load: { arrival: "constant" }, trace: {} }), true);
});
