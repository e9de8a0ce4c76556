/**
 * Truth test for the capacity search: against the capacity target (4 servers of 10 ms behind one
 * FIFO queue: exactly 400 requests a second), `p99 < 50ms` holds at and below 400/s (every answer
 * takes 10 ms) and breaks above it as the queue grows (at 4% over, by 40 ms a second). The search
 * must find the capacity within 5%.
 */
import assert from "node:assert/strict";
import { runSearch } from "../../runner/search/run_search.ts";
import { parsePlanText } from "../../runner/plan/load_plan.ts";
import { startTargetProcess } from "../_helpers/target_process.ts";

Deno.test("the capacity search finds a capacity-limited server's capacity within 5%", async () => {
  await using target = await startTargetProcess([
    ...["--mode", "capacity", "--servers", "4", "--delay", "10ms"],
  ]);
  const { plan, issues } = parsePlanText(`name: search-truth
target: ${target.url}
requests: [{ path: / }]
load: { connections: 16, max_connections: 400, stages: [{ rate: 100/s, duration: 1s }] }
slo: [p99 < 50ms]
search: { from: 350/s, max: 5k/s, step: 1500ms, warmup: 500ms, cooldown: 200ms, soak: 2s }
`);
  assert.ok(plan?.search, issues.map((i) => i.message).join("\n"));
  const result = await runSearch({ ...plan, search: plan.search });
  const steps = result.steps.map((s) => `${s.ratePerSec}${s.soak ? "(soak)" : ""}:${s.outcome}`);
  assert.equal(result.conclusion.status, "found", steps.join(" "));
  const found = result.conclusion.ratePerSec!;
  assert.ok(
    Math.abs(found - 400) <= 20,
    `found ${found}/s, capacity 400/s; steps ${steps.join(" ")}`,
  );
  assert.ok(result.conclusion.failPerSec! > found);
  assert.equal(result.conclusion.bindingSlo, "p99 < 50ms");
  assert.ok(!result.steps.some((s) => s.outcome === "limited"), steps.join(" "));
  assert.equal(result.verdict.status, "pass");
  // Overloaded, the server answers about its capacity, not the rate tried (the target process
  // shares the VM's two cores with tailgate, so allow it to fall a little short).
  for (const s of result.steps.filter((s) => s.ratePerSec >= 500)) {
    const what = `${s.ratePerSec}/s tried: ${s.answeredPerSec}/s answered`;
    assert.ok(s.answeredPerSec >= 300 && s.answeredPerSec <= 440, what);
  }
});
