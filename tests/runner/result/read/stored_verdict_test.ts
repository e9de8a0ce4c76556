import assert from "node:assert/strict";
import { runVerdict, undecidedWarning } from "../../../../runner/result/read/stored_verdict.ts";
import { judgedRun } from "../../../reporters/_judged_results.ts";
import type { VerdictScope } from "../../../../runner/result/read/verdict_order.ts";

Deno.test("undecidedWarning() speaks only when regression checks alone are undecided", () => {
  const warning = undecidedWarning({ status: "inconclusive", regressionOnly: true });
  assert.match(warning!, /^only regression checks are undecided: a warning, not a failure/);
  assert.match(warning!, /--fail-on inconclusive/);
  const others: VerdictScope[] = [
    { status: "pass" },
    { status: "fail" },
    { status: "invalid" },
    { status: "inconclusive" },
  ];
  for (const v of others) assert.equal(undecidedWarning(v), undefined, JSON.stringify(v));
});

Deno.test("runVerdict() is the worst verdict: fail over inconclusive over pass, and counts them", async () => {
  const pass = runVerdict(await judgedRun({ slos: ["p99 < 5ms"] }));
  assert.deepEqual([pass.status, pass.summary], ["pass", "1 gate: 1 pass"]);
  const inconclusive = runVerdict(
    await judgedRun({ slos: ["p99 < 5ms", 'p99.99 < 5ms for "GET /a"'] }),
  );
  assert.equal(inconclusive.status, "inconclusive");
  const fail = runVerdict(
    await judgedRun({ slos: ['p99.99 < 5ms for "GET /a"', "p99 < 1ms", "p50 < 5ms"] }),
  );
  assert.equal(fail.status, "fail");
  assert.deepEqual(fail.tally, { fail: 1, invalid: 0, inconclusive: 1, pass: 1 });
  assert.equal(fail.summary, "3 gates: 1 fail, 1 inconclusive, 1 pass");
  assert.equal(fail.reason, undefined);
});

Deno.test("runVerdict() calls a stopped run invalid whatever its gates say; a tool-limited one is judged", async () => {
  const limited = runVerdict(await judgedRun({ slos: ["p99 < 5ms"], toolLimited: true }));
  assert.deepEqual([limited.status, limited.reason], ["inconclusive", undefined]);
  const stopped = await judgedRun({ slos: ["p99 < 1ms"], complete: false });
  assert.deepEqual(stopped.verdicts.map((v) => [v.name, v.status]), [
    ["run complete", "invalid"],
    ["p99 < 1ms", "fail"],
  ]);
  assert.deepEqual(
    [runVerdict(stopped).status, runVerdict(stopped).reason],
    ["invalid", "the run stopped early (interrupted)"],
  );
  const none = runVerdict(await judgedRun());
  assert.deepEqual([none.status, none.summary], ["pass", "no gates"]);
});

Deno.test("runVerdict() reads the stored verdict and refuses a result never judged", async () => {
  const result = await judgedRun({ slos: ["p99 < 1ms"] });
  // The stored verdict stands, whatever the run now says: readers never recompute it.
  result.run.complete = false;
  assert.equal(runVerdict(result).status, "fail");
  delete result.verdict;
  assert.throws(() => runVerdict(result), /holds no run verdict: judge it first/);
});
