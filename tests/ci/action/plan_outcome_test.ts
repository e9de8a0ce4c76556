import assert from "node:assert/strict";
import { join } from "node:path";
import { readOutcome } from "../../../ci/action/plan_outcome.ts";
import { judgeRun } from "../../../runner/gates/judge_run.ts";
import { gateResult, scaledUs } from "../../_helpers/gate_fixtures.ts";

Deno.test("readOutcome() reads the result and summary tailgate wrote and draws the verdict", async () => {
  const dir = await Deno.makeTempDir({ prefix: "tailgate-outcome-" });
  try {
    const result = gateResult([{
      ratePerSec: 100,
      durationMs: 10_000,
      labels: [{ label: "GET /", response: scaledUs(1_000, 1) }],
    }], { slos: ["p99 < 1ms"] });
    await judgeRun(result);
    await Deno.writeTextFile(join(dir, "result.json"), JSON.stringify(result));
    await Deno.writeTextFile(join(dir, "summary.md"), "### shop\n");
    const o = await readOutcome("plans/shop.yaml", dir, 1, "");
    assert.equal(o.verdict, "fail");
    assert.equal(o.result?.plan.name, "shop");
    assert.equal(o.summaryMd, "### shop\n");
    // A result that cannot be read counts as none: exit 1 without a failed gate is a crash.
    await Deno.writeTextFile(join(dir, "result.json"), "{ not json");
    const broken = await readOutcome("plans/shop.yaml", dir, 1, "boom");
    assert.equal(broken.result, undefined);
    assert.equal(broken.verdict, "invalid");
    assert.equal(broken.stderr, "boom");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("readOutcome() of a folder tailgate never wrote is invalid, without result or summary", async () => {
  const o = await readOutcome(
    "plans/x.yaml",
    "/nonexistent/tailgate-out/x",
    2,
    "plans/x.yaml:1:1: error: …",
  );
  assert.deepEqual(
    { verdict: o.verdict, result: o.result, summaryMd: o.summaryMd },
    { verdict: "invalid", result: undefined, summaryMd: undefined },
  );
});
