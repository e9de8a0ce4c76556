import assert from "node:assert/strict";
import { exitCodeOf, judge } from "../../../runner/api/mod.ts";
import { EXIT_CODES } from "../../../runner/model/exit_codes.ts";
import { measureRun } from "../../../runner/api/measure_plan.ts";
import { parsePlanText } from "../../../runner/plan/load_plan.ts";
import { startTarget } from "../../../runner/target/mod.ts";
import { sampleResult } from "../../_helpers/result_fixtures.ts";

Deno.test("judge() decides the plan's SLOs, stores the verdicts and the run verdict once", async () => {
  const measured = sampleResult({}, { everyRequestAnswered: true });
  assert.deepEqual(measured.verdicts, []);
  const { result, judgement: judged } = await judge(measured);
  assert.ok(judged.verdicts.length > 0);
  assert.equal(result.verdicts, judged.verdicts, "stored in the judged result, not copied");
  assert.equal(result.verdict, judged.verdict);
  assert.deepEqual(
    judged.verdict.tally,
    {
      pass: judged.verdicts.filter((v) => v.status === "pass").length,
      fail: judged.verdicts.filter((v) => v.status === "fail").length,
      inconclusive: judged.verdicts.filter((v) => v.status === "inconclusive").length,
      invalid: judged.verdicts.filter((v) => v.status === "invalid").length,
    },
  );
});

Deno.test("judge() leaves the result it is given as it was; the judged document is a new one", async () => {
  const result = sampleResult({}, { everyRequestAnswered: true });
  const before = structuredClone(result);
  const judged = await judge(result);
  assert.deepEqual(result, before, "nothing stored in the measured result");
  assert.notEqual(judged.result, result, "a new document");
  assert.equal(judged.result.verdict, judged.judgement.verdict);
  assert.deepEqual(judged.result.verdicts, judged.judgement.verdicts);
  assert.deepEqual(
    Object.keys(judged.result),
    [...Object.keys(before).filter((k) => k !== "verdict"), "verdict"],
    "the measured document's fields in their order, the run verdict last",
  );
  // Judged again, the same input gives the same document: nothing carried over from the first.
  assert.deepEqual((await judge(result)).result, judged.result);
});

Deno.test("exitCodeOf() maps the run verdict as tailgate run exits", () => {
  const verdict = (status: "pass" | "fail" | "inconclusive" | "invalid") => ({
    status,
    tally: { pass: 0, fail: 0, inconclusive: 0, invalid: 0 },
    summary: "",
  });
  assert.equal(exitCodeOf(verdict("pass")), EXIT_CODES.ok);
  assert.equal(exitCodeOf(verdict("fail")), EXIT_CODES.gateFailed);
  assert.equal(exitCodeOf(verdict("inconclusive")), EXIT_CODES.invalidRun);
  assert.equal(exitCodeOf(verdict("inconclusive"), { allowInconclusive: true }), EXIT_CODES.ok);
  assert.equal(exitCodeOf(verdict("invalid")), EXIT_CODES.invalidRun);
  const warning = { ...verdict("inconclusive"), regressionOnly: true as const };
  assert.equal(exitCodeOf(warning), EXIT_CODES.ok, "regression checks alone: a warning");
  assert.equal(exitCodeOf(warning, { failOn: "inconclusive" }), EXIT_CODES.invalidRun);
  assert.equal(exitCodeOf(verdict("inconclusive"), { failOn: "fail" }), EXIT_CODES.ok);
});

Deno.test("judge() fails a run whose every answer breaks the bound, short as it is", async () => {
  // Every answer takes 300 ms against a 5 ms bound. A fail must hold less what the generator may
  // have added (its lateness and floor at p99): with 20 ms answers, a busy machine's 15 ms of
  // lateness made the gate inconclusive. Only a generator late by 295 ms at p99 could excuse this.
  await using target = await startTarget({ mode: "fixed", delayMs: 300, port: 0 });
  const { plan } = parsePlanText(`
name: certain-failure
target: ${target.url}
requests: [{ name: GET /, path: / }]
load: { connections: 40, stages: [{ name: steady, rate: 100/s, duration: 1s }] }
slo: [p99 < 5ms]
`);
  const result = await measureRun(plan!);
  const { verdict, verdicts } = (await judge(result)).judgement;
  assert.deepEqual(
    verdicts.map((v) => v.status),
    ["fail"],
    verdicts.map((v) => v.message).join("\n"),
  );
  assert.equal(verdict.status, "fail");
  assert.equal(exitCodeOf(verdict), EXIT_CODES.gateFailed);
});
