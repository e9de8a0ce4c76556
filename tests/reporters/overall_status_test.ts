import assert from "node:assert/strict";
import { overallStatus } from "../../reporters/overall_status.ts";
import { judgedRun } from "./_judged_results.ts";

Deno.test("overallStatus() is the worst verdict: fail over insufficient over pass, and counts them", async () => {
  const pass = overallStatus(await judgedRun({ slos: ["p99 < 5ms"] }));
  assert.deepEqual([pass.status, pass.summary], ["pass", "1 gate: 1 pass"]);
  const insufficient = overallStatus(await judgedRun({ slos: ["p99 < 5ms", "p99.99 < 5ms"] }));
  assert.equal(insufficient.status, "insufficient");
  const fail = overallStatus(await judgedRun({ slos: ["p99.99 < 5ms", "p99 < 1ms", "p50 < 5ms"] }));
  assert.equal(fail.status, "fail");
  assert.deepEqual(fail.tally, { fail: 1, invalid: 0, insufficient: 1, pass: 1 });
  assert.equal(fail.summary, "3 gates: 1 fail, 1 insufficient, 1 pass");
  assert.equal(fail.reason, undefined);
});

Deno.test("overallStatus() calls a tool-limited or stopped run invalid whatever its gates say", async () => {
  const limited = overallStatus(await judgedRun({ slos: ["p99 < 5ms"], toolLimited: true }));
  assert.deepEqual([limited.status, limited.reason], ["invalid", "the run was tool-limited"]);
  const stopped = await judgedRun({ slos: ["p99 < 1ms"], complete: false });
  assert.equal(stopped.verdicts[0].status, "fail");
  assert.deepEqual(
    [overallStatus(stopped).status, overallStatus(stopped).reason],
    ["invalid", "the run stopped early (interrupted)"],
  );
  const none = overallStatus(await judgedRun());
  assert.deepEqual([none.status, none.summary], ["pass", "no gates"]);
});
