import assert from "node:assert/strict";
import { runPlan } from "../../../runner/api/run_plan.ts";
import { parsePlanText } from "../../../runner/plan/load_plan.ts";
import { readRunResult } from "../../../runner/result/read_run_result.ts";
import { startTarget } from "../../../runner/target/mod.ts";

function plan(url: string, ratePerSec: number, duration: string) {
  const { plan, issues } = parsePlanText(`
name: front-door
target: ${url}
requests: [{ name: GET /, path: / }]
load: { connections: 4, stages: [{ name: steady, rate: ${ratePerSec}/s, duration: ${duration} }] }
slo: [p90 < 1s]
`);
  assert.ok(plan, issues.map((i) => i.message).join("\n"));
  return plan;
}

Deno.test("runPlan() returns the measured result of every scheduled request, not yet judged", async () => {
  await using target = await startTarget({ mode: "hello", port: 0 });
  const progress: string[] = [];
  const result = await runPlan(plan(target.url, 200, "1500ms"), {
    onProgress: (p) => progress.push(p.stageName),
  });
  assert.equal(result.run.complete, true);
  assert.equal(result.run.stopReason, "completed");
  const [steady] = result.stages;
  assert.equal(steady.counts.scheduled, 300);
  assert.equal(steady.counts.completed, 300);
  assert.equal(steady.counts.statusCodes["200"], 300);
  assert.deepEqual(result.verdicts, [], "judging is judge()'s");
  assert.equal(result.verdict, undefined);
  assert.ok(progress.includes("steady"), "progress reported");
  const read = readRunResult(JSON.stringify(result));
  assert.ok(read.ok, read.ok ? "" : read.problems[0].message);
});

Deno.test("runPlan() stopped by its signal returns what it measured, marked interrupted", async () => {
  await using target = await startTarget({ mode: "hello", port: 0 });
  const stop = new AbortController();
  // Stopped at the first progress report (about a second into the schedule) of a 30 s plan.
  const result = await runPlan(plan(target.url, 100, "30s"), {
    signal: stop.signal,
    onProgress: (p) => p.completed > 0 && stop.abort(),
  });
  assert.equal(result.run.complete, false);
  assert.equal(result.run.stopReason, "interrupted");
  const completed = result.stages[0].counts.completed;
  assert.ok(completed >= 50 && completed < 1000, `${completed} completed before the stop`);
});
