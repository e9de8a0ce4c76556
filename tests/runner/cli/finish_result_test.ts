import assert from "node:assert/strict";
import { finishResult } from "../../../runner/cli/finish_result.ts";
import { sampleResult } from "../../_helpers/result_fixtures.ts";

Deno.test("an interrupted run with --update-baseline says the history was left as it was", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const result = sampleResult({ complete: false });
    assert.equal(result.run.complete, false);
    const finished = await finishResult(result, {
      outDir: `${dir}/out`,
      reports: ["json"],
      judge: true,
      baselineDir: `${dir}/baselines`,
      updateBaseline: true,
      color: false,
    });
    assert.match(
      finished.notes.join("\n"),
      /baseline not updated: the run stopped early \(interrupted\), so the history in .* was left/,
    );
    await assert.rejects(Deno.stat(`${dir}/baselines`), Deno.errors.NotFound);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
