/**
 * Truth test for the capacity search: against the capacity target (4 servers of 10 ms behind one
 * FIFO queue: exactly 400 requests a second), `p99 < 50ms` holds at and below 400/s (every answer
 * takes 10 ms) and breaks above it as the queue grows (at 4% over, by 40 ms a second). The search
 * must find the capacity within 5%, decide its `sustainable_rate` gate, and stop a step far above
 * the capacity as soon as its failure is certain.
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
slo: [p99 < 50ms, sustainable_rate >= 380/s]
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
  // Each failed step says which SLO broke and what was measured (or why it stopped early).
  for (const s of result.steps.filter((s) => s.outcome === "fail")) {
    assert.match(
      s.summary,
      /p99 < 50ms (fail: measured \S+|fails whatever the rest do)/,
      s.summary,
    );
  }
  // A passing pause of this shared VM may leave one step behind its schedule: it is run again,
  // never counted as the server's limit.
  result.steps.forEach((s, i) => {
    if (s.outcome !== "limited") return;
    const next = result.steps[i + 1];
    assert.ok(
      next?.ratePerSec === s.ratePerSec && next.outcome !== "limited",
      `${steps.join(" ")}\n${result.steps.map((x) => x.summary).join("\n")}`,
    );
  });
  assert.equal(result.verdict.status, "pass", JSON.stringify(result.verdict));
  assert.deepEqual(result.verdict.gates.map((g) => [g.name, g.status]), [
    ["sustainable_rate >= 380/s", "pass"],
  ]);
  // Overloaded, the server answers about its capacity, not the rate tried (the target process
  // shares the VM's two cores with tailgate, so allow it to fall a little short).
  for (const s of result.steps.filter((s) => s.ratePerSec >= 500)) {
    const what = `${s.ratePerSec}/s tried: ${s.answeredPerSec}/s answered`;
    assert.ok(s.answeredPerSec >= 300 && s.answeredPerSec <= 440, what);
  }
});

Deno.test("a step far above the capacity stops once its failure is certain, as a fail", async () => {
  await using target = await startTargetProcess([
    ...["--mode", "capacity", "--servers", "4", "--delay", "10ms"],
  ]);
  const { plan, issues } = parsePlanText(`name: search-early-stop
target: ${target.url}
requests: [{ path: / }]
load: { connections: 16, max_connections: 400, stages: [{ rate: 100/s, duration: 1s }] }
slo: [p99 < 50ms]
search: { from: 1600/s, max: 5k/s, step: 8s, warmup: 500ms, cooldown: 200ms, soak: 0s }
`);
  assert.ok(plan?.search, issues.map((i) => i.message).join("\n"));
  const stop = new AbortController();
  const started = performance.now();
  const result = await runSearch({ ...plan, search: plan.search }, {
    signal: stop.signal,
    // 1600/s and 800/s are 4x and 2x the capacity; stop the search after them.
    onStep: ({ phase }) => {
      if (phase === "done") stop.abort();
    },
  });
  const [first] = result.steps;
  assert.equal(first.ratePerSec, 1_600);
  assert.equal(first.outcome, "fail", first.summary);
  assert.match(first.summary, /^stopped after .*: \d+ requests already failed or are outstanding/);
  assert.deepEqual(first.failedSlos, ["p99 < 50ms"]);
  // Answers counted while the step ran, not over the 8 s it was planned for.
  assert.ok(
    first.answeredPerSec >= 300 && first.answeredPerSec <= 440,
    `${first.answeredPerSec}/s`,
  );
  // Progress reports a second apart decide it, well before the 8 s step ends.
  const stoppedAfterS = Number(/^stopped after ([\d.]+)s/.exec(first.summary)?.[1]);
  assert.ok(stoppedAfterS < 5, first.summary);
  assert.ok(performance.now() - started < 10_000, `${performance.now() - started} ms`);
  assert.equal(result.complete, false);
});
