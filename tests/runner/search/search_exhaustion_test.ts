import assert from "node:assert/strict";
import { parsePlan } from "../../../runner/plan/parse_plan.ts";
import type { PlanSearch, ResolvedPlan } from "../../../runner/plan/types.ts";
import { searchExhaustion } from "../../../runner/search/search_exhaustion.ts";

function searchPlan(rows: number): ResolvedPlan & { search: PlanSearch } {
  const csv = "id\n" + Array.from({ length: rows }, (_, i) => `i${i}`).join("\n") + "\n";
  const text = `name: s
target: http://127.0.0.1:8080
data:
  ids: { file: ids.csv, exhausted: error }
requests: [{ name: r, path: "/{{ids.id}}" }]
load: { stages: [{ rate: 10/s, duration: 1s }] }
search: { from: 10/s, max: 100/s, step: 1s, warmup: 0s, soak: 0s }
`;
  const bytes = new TextEncoder().encode(csv);
  const { plan, issues } = parsePlan("s.yaml", new TextEncoder().encode(text), {
    env: () => undefined,
    fileSize: (p) => p.endsWith("ids.csv") ? bytes.length : undefined,
    readFile: (p) => p.endsWith("ids.csv") ? bytes : undefined,
    planDir: "/plans",
    requireEnv: true,
  });
  assert.ok(plan, issues.map((i) => i.message).join("\n"));
  return plan as ResolvedPlan & { search: PlanSearch };
}

Deno.test("a search must hold its longest step at max: an inconclusive step runs 2 then 4 times as long", () => {
  // 100/s for 4 x 1 s takes 400 rows: 399 are too few, 400 enough.
  assert.match(
    searchExhaustion(searchPlan(399))!,
    /^s\.yaml:4:3: the search's longest step takes 400 rows of `ids`, but `ids\.csv` holds 399 .* at `max: 100\/s`/,
  );
  assert.equal(searchExhaustion(searchPlan(400)), undefined);
});
