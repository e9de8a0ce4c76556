import assert from "node:assert/strict";
import { dataExhaustion } from "../../../runner/schedule/data_exhaustion.ts";
import { loadPlan } from "../../../runner/plan/load_plan.ts";

Deno.test("a journey takes one row for all its steps: the demand counts journeys, not steps", async () => {
  const dir = await Deno.makeTempDir({ prefix: "tailgate-exhaustion-" });
  await Deno.writeTextFile(`${dir}/users.csv`, "id\n1\n2\n3\n");
  await Deno.writeTextFile(
    `${dir}/plan.yaml`,
    `name: t
target: http://127.0.0.1:8080
data:
  users: { file: users.csv, exhausted: error }
requests:
  - { name: health, path: /health, weight: 1 }
  - journey: order
    weight: 1
    steps:
      - { name: a, path: "/a/{{users.id}}" }
      - { name: b, path: "/b/{{users.id}}" }
load:
  stages: [{ rate: 10/s, duration: 1s }]
`,
  );
  const { plan, issues } = await loadPlan(`${dir}/plan.yaml`, { requireEnv: true });
  await Deno.remove(dir, { recursive: true });
  assert.ok(plan, issues.map((i) => i.message).join("\n"));
  const { demand, issues: exhausted } = dataExhaustion(plan);
  // 10 arrivals, half of them journeys: 5 rows, not 10 (two steps each) nor 0.
  assert.equal(demand[0].draws, 5);
  assert.deepEqual(exhausted.map((i) => i.message), [
    "the schedule takes 5 rows of `users`, but `users.csv` holds 3 (`exhausted: error`)",
  ]);
});
