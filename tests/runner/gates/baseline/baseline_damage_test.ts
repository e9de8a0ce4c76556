import assert from "node:assert/strict";
import { baselineDamage } from "../../../../runner/gates/baseline/baseline_damage.ts";
import { baselineRunFrom } from "../../../../runner/gates/baseline/baseline_store.ts";
import { gateResult, scaledUs } from "../../../_helpers/gate_fixtures.ts";

function history() {
  const result = gateResult([{
    name: "main",
    ratePerSec: 100,
    durationMs: 10_000,
    labels: [
      { label: "GET /a", response: scaledUs(500, 1) },
      { label: "GET /b", response: scaledUs(500, 2) },
    ],
  }]);
  return { runs: [baselineRunFrom(result), baselineRunFrom(result)] };
}

Deno.test("baselineDamage() is undefined for a sound history and names the first damaged histogram", () => {
  const baseline = history();
  assert.equal(baselineDamage(baseline as never), undefined);
  baseline.runs[1].stages[0].labels[1].response.hdr = "not base64 at all!";
  const damage = baselineDamage(baseline as never)!;
  assert.equal(damage.run, 2);
  assert.equal(damage.where, 'stage "main" label "GET /b", response time');
  assert.ok(damage.error.length > 0);
});
