import assert from "node:assert/strict";
import { statusBesideRunner } from "../../_helpers/runner_undecided.ts";
import { join } from "node:path";
import { runPlanCommand } from "../../../runner/cli/run_command.ts";
import { readRunResult } from "../../../runner/result/read_run_result.ts";
import { startTarget } from "../../../runner/target/mod.ts";

Deno.test("tailgate run runs a plan of journeys alone, judges its journey SLO and reports it", async () => {
  await using target = await startTarget({ mode: "hello", port: 0 });
  const dir = await Deno.makeTempDir();
  const file = join(dir, "plan.yaml");
  await Deno.writeTextFile(
    file,
    `name: cli-journeys
target: http://127.0.0.1:1
requests:
  - journey: order
    weight: 1
    steps:
      - { name: create, method: POST, path: /items, check: { status: 200 } }
      - { name: read, path: /items/1, think: 5ms }
load:
  connections: 2
  stages: [{ rate: 200/s, duration: 1s }]
slo: ["journey.p50 < 1s", 'p50 < 1s for "order / read"']
`,
  );
  // --target moves the journeys' steps as it moves requests.
  const outcome = await runPlanCommand(
    { planPath: file, outDir: join(dir, "out"), caCertFiles: [], target: target.url },
    () => {},
  );
  const read = readRunResult(await Deno.readTextFile(join(dir, "out", "result.json")));
  const md = await Deno.readTextFile(join(dir, "out", "summary.md"));
  await Deno.remove(dir, { recursive: true });
  assert.ok(read.ok);
  assert.equal(outcome.exitCode, 0, outcome.errors.join("\n"));
  const [order] = read.value.stages[0].journeys!;
  assert.deepEqual([order.started, order.completed, order.failed], [200, 200, 0]);
  // A pass the runner's contention left undecided (tests run beside others) is still a pass here.
  assert.deepEqual(read.value.verdicts.map((v) => [v.name, statusBesideRunner(v)]), [
    ["journey.p50 < 1s", "pass"],
    ["p50 < 1s [order / read]", "pass"],
  ]);
  assert.equal(read.value.totals.counts.completed, 400);
  assert.match(md, /### Journeys/);
  assert.match(outcome.output!, /journey \/ step/);
});
