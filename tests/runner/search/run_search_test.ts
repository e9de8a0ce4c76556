import assert from "node:assert/strict";
import { runSearch, stepOutcome, stepPlan } from "../../../runner/search/run_search.ts";
import { parsePlanText } from "../../../runner/plan/load_plan.ts";
import { planRecord } from "../../../runner/result/plan_record.ts";
import { storedSlos } from "../../../runner/result/read/mod.ts";

Deno.test("a step the generator could not send is its limit, unless the server failed beyond doubt", () => {
  assert.equal(stepOutcome("pass", false), "pass");
  assert.equal(stepOutcome("fail", false), "fail");
  assert.equal(stepOutcome("inconclusive", false), "inconclusive");
  assert.equal(stepOutcome("invalid", false), "inconclusive");
  assert.equal(stepOutcome("pass", true), "limited");
  assert.equal(stepOutcome("inconclusive", true), "limited");
  assert.equal(stepOutcome("fail", true), "fail");
});

Deno.test("a step is the plan's requests at one rate, a warmup first, every SLO judged on it", () => {
  const { plan, issues } = parsePlanText(`name: s
target: http://127.0.0.1:8080
requests: [{ path: / }]
load: { connections: 8, stages: [{ rate: 1k/s, duration: 10s }] }
slo: [p99 < 10ms at 1k/s, error_rate < 1%]
search: { from: 100/s, max: 10k/s, step: 5s, warmup: 1s }
`);
  assert.ok(plan?.search, issues.map((i) => i.message).join("\n"));
  const step = stepPlan({ ...plan, search: plan.search }, {
    ratePerSec: 2_500,
    durationMs: 5_000,
    soak: false,
  });
  assert.deepEqual(
    step.load.stages.map((
      s,
    ) => [s.kind, s.warmup, s.durationMs, s.kind === "constant" && s.ratePerSec]),
    [["constant", true, 1_000, 2_500], ["constant", false, 5_000, 2_500]],
  );
  assert.equal(step.load.connections, 8);
  assert.deepEqual(step.slos.map((s) => "atRatePerSec" in s), [false, false]);
  assert.deepEqual(step.slos.map((s) => s.text), ["p99 < 10ms at 1k/s", "error_rate < 1%"]);
  // The step's result judges them as the step reads them, not as their text reads.
  const [slo] = storedSlos(planRecord(step));
  assert.ok(slo.parsed.ok);
  assert.equal(slo.parsed.value.atRatePerSec, undefined, "judged at 2.5k/s, not left invalid");
});

Deno.test("each step of a search records the seed its run drew: fresh per step, or the plan's", async () => {
  await using server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    () => new Response("ok"),
  );
  const seeds = async (seedLine: string) => {
    const { plan, issues } = parsePlanText(`name: s
target: http://127.0.0.1:${server.addr.port}
requests: [{ path: / }]
load: { connections: 2,${seedLine} stages: [{ rate: 50/s, duration: 1s }] }
slo: [error_rate < 1%]
search: { from: 50/s, max: 100/s, step: 300ms, warmup: 100ms, soak: 300ms, cooldown: 0s }
`);
    assert.ok(plan?.search, issues.map((i) => i.message).join("\n"));
    const result = await runSearch({ ...plan, search: plan.search });
    assert.ok(result.steps.length >= 2, JSON.stringify(result.steps));
    return result.steps.map((s) => s.seed);
  };
  const fresh = await seeds("");
  assert.ok(fresh.every((s) => typeof s === "number"));
  assert.equal(new Set(fresh).size, fresh.length, `each step its own seed: ${fresh}`);
  assert.deepEqual(new Set(await seeds(" seed: 7,")), new Set([7]));
});
