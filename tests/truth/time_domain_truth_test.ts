/**
 * Truth tests for the time-domain analysis, against built-in targets whose behaviour over time is
 * known: a trend's slope, a stall's period, and two modes; and the SLOs that gate them
 * (`trend(p50) < …`, `stalls == 0`) judged on those runs.
 */
import assert from "node:assert/strict";
import { judge } from "../../runner/api/judge.ts";
import { measureRun } from "../../runner/api/measure_plan.ts";
import { parsePlanText } from "../../runner/plan/load_plan.ts";
import { startTargetProcess } from "../_helpers/target_process.ts";

async function measured(url: string, rate: string, duration: string, slos: string[] = []) {
  const { plan, issues } = parsePlanText(`name: time-domain
target: ${url}
requests: [{ path: / }]
load:
  connections: 32
  stages:
    - { rate: ${rate}, duration: 1s, warmup: true }
    - { rate: ${rate}, duration: ${duration} }
slo: [${slos.join(", ")}]
`);
  assert.ok(plan, issues.map((i) => i.message).join("\n"));
  const result = await measureRun(plan);
  const { verdicts } = (await judge(result)).judgement;
  return { ...result.stages[1].timeDomain!, verdicts };
}

Deno.test("a trend target's slope is recovered within 10%: 2 ms more every second is 120 ms/min", async () => {
  await using target = await startTargetProcess([
    "--mode",
    "trend",
    "--growth",
    "2ms",
    "--delay",
    "1ms",
  ]);
  const t = await measured(target.url, "100/s", "12s", [
    "trend(p50) < 60ms/min",
    "trend(p50) < 1s/min",
  ]);
  const slope = t.trendP50UsPerMin!;
  assert.ok(slope.significant);
  assert.ok(Math.abs(slope.slope - 120_000) <= 12_000, `p50 slope ${slope.slope} µs/min`);
  assert.deepEqual(t.verdicts.map((v) => v.status), ["fail", "pass"], JSON.stringify(t.verdicts));
});

Deno.test("a stall target's stalls are listed with its period", async () => {
  await using target = await startTargetProcess([
    ...["--mode", "stall", "--stall", "500ms", "--period", "3s", "--delay", "1ms"],
  ]);
  const t = await measured(target.url, "100/s", "12s", ["stalls == 0"]);
  assert.ok(t.stalls.length >= 3, JSON.stringify(t.stalls));
  assert.equal(t.verdicts[0].status, "fail", t.verdicts[0].message);
  assert.equal(t.stallPeriodMs, 3_000, JSON.stringify(t.stalls));
});

Deno.test("a bimodal target is flagged, with modes near its two latencies", async () => {
  await using target = await startTargetProcess([
    ...["--mode", "bimodal", "--frac", "0.2", "--slow", "50ms", "--delay", "2ms"],
  ]);
  const t = await measured(target.url, "200/s", "3s");
  assert.equal(t.bimodal.flagged, true);
  const [fast, slow] = t.bimodal.modesUs!;
  assert.ok(fast >= 1_500 && fast <= 3_500 && slow >= 40_000 && slow <= 65_000, `${fast}, ${slow}`);
});
