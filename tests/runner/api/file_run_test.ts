import assert from "node:assert/strict";
import { fileRun } from "../../../runner/api/file_run.ts";
import { loadHistoryFile } from "../../../runner/history/mod.ts";
import { sampleResult } from "../../_helpers/result_fixtures.ts";

Deno.test("fileRun() files a judged run only when asked, and never into a damaged history", async () => {
  const dir = await Deno.makeTempDir({ prefix: "tailgate-file-run-" });
  try {
    const result = sampleResult({}, { everyRequestAnswered: true });
    const plan = result.plan.name;
    assert.deepEqual(await fileRun(result, { baselineDir: dir }, false), {
      notes: [],
      ioFailures: [],
      warnings: [],
    });
    const damaged = await fileRun(result, { baselineDir: dir, updateBaseline: true }, true);
    assert.deepEqual(damaged.notes, [
      "baseline not updated: the stored history is damaged (see the verdicts)",
    ]);
    const none = await loadHistoryFile(dir, plan);
    assert.ok(none.ok && none.value === undefined, "nothing was written");
    const filed = await fileRun(result, { baselineDir: dir, updateBaseline: true }, false);
    assert.deepEqual(filed.ioFailures, []);
    assert.match(filed.notes[0], /^baseline updated: /);
    const stored = await loadHistoryFile(dir, plan);
    assert.equal(stored.ok && stored.value?.runs.length, 1);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("fileRun() files as the judgement's stage match says: a changed plan restarts the history", async () => {
  const dir = await Deno.makeTempDir({ prefix: "tailgate-file-run-" });
  try {
    const options = { baselineDir: dir, updateBaseline: true };
    const first = sampleResult({ startedAt: new Date("2025-01-01T00:00:00.000Z") });
    assert.match((await fileRun(first, options, false)).notes[0], /^baseline updated: /);
    // The same stages, but judged against a newest run whose stages differed (the match says so).
    const next = sampleResult({ startedAt: new Date("2025-01-02T00:00:00.000Z") });
    const changed = { unmatched: [], newestDate: first.run.startedAt, sameAsNewest: false };
    const filed = await fileRun(next, options, false, changed);
    assert.match(filed.notes[0], /^baseline restarted: the plan's measured stages changed/);
    const stored = await loadHistoryFile(dir, next.plan.name);
    assert.equal(stored.ok && stored.value?.runs.length, 1);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
