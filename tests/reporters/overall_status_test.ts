import assert from "node:assert/strict";
import { overallStatus } from "../../reporters/overall_status.ts";
import { judgedRun } from "./_judged_results.ts";

Deno.test("overallStatus() is the worst verdict: fail over inconclusive over pass, and counts them", async () => {
  const pass = overallStatus(await judgedRun({ slos: ["p99 < 5ms"] }));
  assert.deepEqual([pass.status, pass.summary], ["pass", "1 gate: 1 pass"]);
  const inconclusive = overallStatus(
    await judgedRun({ slos: ["p99 < 5ms", 'p99.99 < 5ms for "GET /a"'] }),
  );
  assert.equal(inconclusive.status, "inconclusive");
  const fail = overallStatus(
    await judgedRun({ slos: ['p99.99 < 5ms for "GET /a"', "p99 < 1ms", "p50 < 5ms"] }),
  );
  assert.equal(fail.status, "fail");
  assert.deepEqual(fail.tally, { fail: 1, invalid: 0, inconclusive: 1, pass: 1 });
  assert.equal(fail.summary, "3 gates: 1 fail, 1 inconclusive, 1 pass");
  assert.equal(fail.reason, undefined);
});

Deno.test("overallStatus() calls a stopped run invalid whatever its gates say; a tool-limited one is judged", async () => {
  const limited = overallStatus(await judgedRun({ slos: ["p99 < 5ms"], toolLimited: true }));
  assert.deepEqual([limited.status, limited.reason], ["inconclusive", undefined]);
  const stopped = await judgedRun({ slos: ["p99 < 1ms"], complete: false });
  assert.deepEqual(stopped.verdicts.map((v) => [v.name, v.status]), [
    ["run complete", "invalid"],
    ["p99 < 1ms", "fail"],
  ]);
  assert.deepEqual(
    [overallStatus(stopped).status, overallStatus(stopped).reason],
    ["invalid", "the run stopped early (interrupted)"],
  );
  const none = overallStatus(await judgedRun());
  assert.deepEqual([none.status, none.summary], ["pass", "no gates"]);
});
