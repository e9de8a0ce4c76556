import assert from "node:assert/strict";
import { planSummary } from "../../../reporters/html/html_plan.ts";
import { sampleResult } from "../../_helpers/result_fixtures.ts";
import type { PlanRecord } from "../../../runner/model/run_result.ts";

/** The sample plan's record with `edit` applied. */
function planWith(edit: (plan: PlanRecord) => PlanRecord): PlanRecord {
  return edit(structuredClone(sampleResult().plan));
}

/** The text of the settings table's row named `key`. */
function row(html: string, key: string): string {
  const m = new RegExp(`<th[^>]*>${key}</th>\\s*<td[^>]*>([^<]*)</td>`).exec(html);
  assert.ok(m, `no row ${key} in ${html.slice(0, 600)}`);
  return m[1];
}

Deno.test("planSummary() says the seed was drawn for the run when the plan fixed none", () => {
  const drawn = planWith((p) => ({ ...p, load: { ...p.load, seed: 3141592, seedPerRun: true } }));
  assert.equal(row(planSummary(drawn), "arrivals"), "constant (seed 3141592, drawn for this run)");
  const fixed = planWith((p) => ({ ...p, load: { ...p.load, seed: 7, seedPerRun: undefined } }));
  assert.equal(row(planSummary(fixed), "arrivals"), "constant (seed 7)");
});

Deno.test("planSummary() names an absolute plan file by its name, a relative one as given", () => {
  const at = (file: string) => row(planSummary(planWith((p) => ({ ...p, file }))), "file");
  assert.equal(at("/home/ci/work/tailgate/plans/demo.yaml"), "demo.yaml");
  assert.equal(at("C:\\Users\\ci\\plans\\demo.yaml"), "demo.yaml");
  assert.equal(at("plans/examples/smoke.yaml"), "plans/examples/smoke.yaml");
  assert.doesNotMatch(
    planSummary(planWith((p) => ({ ...p, file: "/home/ci/x.yaml" }))),
    /home\/ci/,
  );
});
