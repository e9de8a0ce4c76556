import assert from "node:assert/strict";
import { renderReport } from "../../reporters/write_reports.ts";
import { readRunResult } from "../../runner/result/read_run_result.ts";
import { reportResult } from "../_helpers/report_fixtures.ts";
import { traceIdOf, withSlowest } from "./_slowest_results.ts";

Deno.test("renderReport() json keeps every slow request and exemplar; a report of the file read back lists them", () => {
  const result = withSlowest(reportResult(), true);
  const json = renderReport(result, "json");
  const read = readRunResult(json);
  assert.ok(read.ok, JSON.stringify(read));
  for (const [i, stage] of result.stages.entries()) {
    for (const [j, label] of stage.labels.entries()) {
      assert.deepEqual(read.value.stages[i].labels[j].slowest, label.slowest);
      assert.deepEqual(read.value.stages[i].labels[j].exemplars, label.exemplars);
    }
  }
  assert.deepEqual(read.value.plan.trace, {});
  // `tailgate report result.json` renders from the file as read.
  assert.ok(renderReport(read.value, "html").includes(traceIdOf(2, 1, 0)));
  assert.ok(renderReport(read.value, "md").includes(`\`${traceIdOf(2, 1, 0)}\``));
});
