import assert from "node:assert/strict";
import { EXIT_CODES } from "../../../runner/model/exit_codes.ts";
import { judge } from "../../../runner/api/judge.ts";
import { computeRunVerdict } from "../../../runner/gates/run_verdict.ts";
import { exitCodeOf } from "../../../runner/result/read/mod.ts";
import type { VerdictStatus } from "../../../runner/model/run_result.ts";
import { gateResult, scaledUs } from "../../_helpers/gate_fixtures.ts";

const v = (status: VerdictStatus) => ({ status });

Deno.test("a stopped run is invalid whatever its gates; a tool-limited one is judged by its gates", () => {
  const base = { verdicts: [{ status: "pass" as const }], intervals: [] };
  const stopped = computeRunVerdict({
    ...base,
    run: { complete: false, stopReason: "interrupted" },
  } as never);
  assert.equal(stopped.status, "invalid");
  assert.equal(stopped.reason, "the run stopped early (interrupted)");
  const judged = computeRunVerdict({ ...base, run: { complete: true } } as never);
  assert.deepEqual([judged.status, judged.reason], ["pass", undefined]);
  assert.equal(judged.summary, "1 gate: 1 pass");
});

Deno.test("a target that stopped answering fails the run with exit 4, whatever its gates", () => {
  const counts = (ok: number, refused: number) => ({
    completed: ok + refused,
    ok,
    errors: refused ? { refused } : {},
  });
  const intervals = [
    { startMs: 0, durationMs: 1000, counts: counts(1000, 0) },
    { startMs: 1000, durationMs: 1000, counts: counts(0, 1000) },
    { startMs: 2000, durationMs: 1000, counts: counts(0, 1000) },
  ];
  const lost = computeRunVerdict({
    verdicts: [{ status: "pass" }],
    intervals,
    run: { complete: true },
  } as never);
  assert.equal(lost.status, "fail");
  assert.deepEqual(lost.targetLost, { sinceMs: 1000, failedRequests: 2000 });
  assert.match(lost.reason!, /the target stopped answering 1\.0 s into the run/);
  assert.equal(exitCodeOf(lost), EXIT_CODES.unreachable);
  // It answered again in the last second: not lost, the gates decide.
  const back = computeRunVerdict({
    verdicts: [{ status: "pass" }],
    intervals: [...intervals, { startMs: 3000, durationMs: 1000, counts: counts(5, 995) }],
    run: { complete: true },
  } as never);
  assert.equal(back.targetLost, undefined);
  assert.equal(back.status, "pass");
});

Deno.test("the exit code is read off the verdict: 0, 1, 3, and for inconclusive by fail-on", () => {
  assert.equal(exitCodeOf(v("pass")), EXIT_CODES.ok);
  assert.equal(exitCodeOf(v("fail")), EXIT_CODES.gateFailed);
  assert.equal(exitCodeOf(v("invalid")), EXIT_CODES.invalidRun);
  assert.equal(exitCodeOf(v("inconclusive")), EXIT_CODES.invalidRun);
  assert.equal(exitCodeOf(v("inconclusive"), { failOn: "fail" }), EXIT_CODES.ok);
  assert.equal(exitCodeOf(v("invalid"), { failOn: "fail" }), EXIT_CODES.invalidRun);
  assert.equal(exitCodeOf(v("fail"), { failOn: "fail" }), EXIT_CODES.gateFailed);
  const warning = { status: "inconclusive" as const, regressionOnly: true as const };
  assert.equal(exitCodeOf(warning), EXIT_CODES.ok, "regression checks alone: a warning");
  assert.equal(exitCodeOf(warning, { failOn: "inconclusive" }), EXIT_CODES.invalidRun);
});

Deno.test("the run verdict records when only regression checks are undecided", () => {
  const run = { complete: true };
  const verdict = (...gates: Array<[string, VerdictStatus]>) =>
    computeRunVerdict({
      verdicts: gates.map(([kind, status]) => ({ kind, status })),
      intervals: [],
      run,
    } as never);
  const only = verdict(["slo", "pass"], ["regression", "inconclusive"]);
  assert.equal(only.status, "inconclusive");
  assert.equal(only.regressionOnly, true);
  assert.equal(
    verdict(["slo", "inconclusive"], ["regression", "inconclusive"]).regressionOnly,
    undefined,
  );
  assert.equal(verdict(["validity", "inconclusive"]).regressionOnly, undefined);
  // A failed or invalid run is red whatever its undecided regression checks.
  assert.equal(verdict(["slo", "fail"], ["regression", "inconclusive"]).regressionOnly, undefined);
  assert.equal(
    verdict(["validity", "invalid"], ["regression", "inconclusive"]).regressionOnly,
    undefined,
  );
  assert.equal(verdict(["regression", "pass"]).regressionOnly, undefined);
});

Deno.test("judging stores the run verdict in the result once", async () => {
  const measured = gateResult([{
    ratePerSec: 100,
    durationMs: 10_000,
    labels: [{ label: "GET /", response: scaledUs(1_000, 1) }],
  }], { slos: ["p99 < 1ms", "p50 < 5ms"] });
  assert.equal(measured.verdict, undefined);
  const result = (await judge(measured)).result;
  assert.deepEqual(result.verdict, {
    status: "fail",
    tally: { fail: 1, invalid: 0, inconclusive: 0, pass: 1 },
    summary: "2 gates: 1 fail, 1 pass",
  });
});
