import assert from "node:assert/strict";
import {
  earnedCodes,
  jobExitCode,
  jobVerdict,
  planVerdict,
  type VerdictScope,
} from "../../../ci/action/verdict.ts";
import { judge } from "../../../runner/api/judge.ts";
import type { RunResult } from "../../../runner/model/run_result.ts";
import { gateResult, scaledUs } from "../../_helpers/gate_fixtures.ts";

async function judged(slos: string[], toolLimited = false, complete = true): Promise<RunResult> {
  const result = gateResult([{
    ratePerSec: 100,
    durationMs: 10_000,
    labels: [{ label: "GET /", response: scaledUs(1_000, 1) }],
  }], { slos, toolLimited });
  result.run.complete = complete;
  return (await judge(result)).result;
}

Deno.test("planVerdict() reads exit 3 as inconclusive only for a sound run with an inconclusive verdict", async () => {
  const inconclusive = await judged(["p99.9 < 5ms"]);
  assert.equal(planVerdict(3, inconclusive), "inconclusive");
  assert.equal(planVerdict(3, await judged(["p99.9 < 5ms"], true)), "inconclusive");
  assert.equal(
    planVerdict(1, await judged(["p99.9 < 5ms"], true)),
    "invalid",
    "not the code it earns",
  );
  assert.equal(planVerdict(3, await judged(["p99.9 < 5ms"], false, false)), "invalid");
  assert.equal(planVerdict(3, undefined), "invalid");
});

Deno.test("planVerdict() reads exit 1 as fail only when a verdict failed (a crash also exits 1)", async () => {
  assert.equal(planVerdict(1, await judged(["p99 < 1ms"])), "fail");
  assert.equal(planVerdict(1, await judged(["p99 < 5ms"])), "invalid");
  assert.equal(planVerdict(1, undefined), "invalid");
  assert.equal(planVerdict(0, undefined), "pass");
  assert.equal(planVerdict(2, undefined), "invalid");
  assert.equal(planVerdict(4, undefined), "invalid");
});

Deno.test("planVerdict() reads the verdict the result stored, not a recomputation", async () => {
  const result = await judged(["p99 < 1ms"]);
  assert.equal(result.verdict?.status, "fail");
  // A reader that recomputed from the run would now say invalid; the stored verdict stands.
  result.run.complete = false;
  assert.equal(planVerdict(1, result), "fail");
  // A result that stores no verdict (version 1, or never judged) is not one the job can trust.
  delete result.verdict;
  assert.equal(planVerdict(1, result), "invalid");
});

Deno.test("jobExitCode() follows fail-on: inconclusive reds every non-pass, inconclusive-slo lets regression checks alone pass, inconclusive-sampling whatever the runner left undecided, fail every undecided gate, never stays green", () => {
  const regressionOnly = {
    status: "inconclusive",
    regressionOnly: true,
    runnerOnly: true,
  } as const;
  const runnerOnly = { status: "inconclusive", runnerOnly: true } as const;
  const table: Array<[VerdictScope, number, number, number, number, number, number]> = [
    // verdict, tailgate code, fail-on inconclusive, inconclusive-slo, inconclusive-sampling,
    // fail, never
    [{ status: "pass" }, 0, 0, 0, 0, 0, 0],
    [regressionOnly, 0, 3, 0, 0, 0, 0],
    [runnerOnly, 0, 3, 3, 0, 0, 0],
    [{ status: "inconclusive" }, 3, 3, 3, 3, 0, 0],
    [{ status: "fail" }, 1, 1, 1, 1, 1, 0],
    [{ status: "invalid" }, 4, 4, 4, 4, 4, 0],
    [{ status: "invalid" }, 2, 2, 2, 2, 2, 0],
  ];
  for (const [verdict, code, strict, slo, sampling, fail, never] of table) {
    const what = JSON.stringify(verdict);
    assert.equal(jobExitCode(verdict, code, "inconclusive"), strict, `${what} inconclusive`);
    assert.equal(jobExitCode(verdict, code, "inconclusive-slo"), slo, `${what} inconclusive-slo`);
    assert.equal(
      jobExitCode(verdict, code, "inconclusive-sampling"),
      sampling,
      `${what} inconclusive-sampling`,
    );
    assert.equal(jobExitCode(verdict, code, "fail"), fail, `${what} fail`);
    assert.equal(jobExitCode(verdict, code, "never"), never, `${what} never`);
  }
});

Deno.test("planVerdict() reads exit 0 or 3 as inconclusive when only regression checks were undecided", async () => {
  const result = await judged(["p99 < 5ms"]);
  result.verdict = { ...result.verdict!, status: "inconclusive", regressionOnly: true };
  assert.equal(planVerdict(0, result), "inconclusive", "tailgate's default: a warning, exit 0");
  assert.equal(planVerdict(3, result), "inconclusive", "--fail-on inconclusive");
  assert.equal(planVerdict(1, result), "invalid");
  assert.deepEqual(earnedCodes(result.verdict), [3, 0, 0, 0]);
  assert.deepEqual(earnedCodes({ status: "inconclusive" }), [3, 3, 3, 0]);
  assert.deepEqual(earnedCodes({ status: "inconclusive", runnerOnly: true }), [3, 3, 0, 0]);
});

Deno.test("jobVerdict() is the worst plan's, regression-only while every undecided plan is", () => {
  const only = { verdict: "inconclusive", regressionOnly: true, runnerOnly: true } as const;
  assert.deepEqual(jobVerdict([{ verdict: "pass" }, only]), {
    status: "inconclusive",
    regressionOnly: true,
    runnerOnly: true,
  });
  const runner = { verdict: "inconclusive", runnerOnly: true } as const;
  assert.deepEqual(jobVerdict([only, runner]), { status: "inconclusive", runnerOnly: true });
  assert.deepEqual(jobVerdict([only, { verdict: "inconclusive" }]), { status: "inconclusive" });
  assert.deepEqual(jobVerdict([only, { verdict: "fail" }]), { status: "fail" });
  assert.deepEqual(jobVerdict([]), { status: "invalid" });
});

Deno.test("planVerdict() reads exit 5 (an I/O failure) as invalid even beside a passing result, and fail-on keeps its code", async () => {
  const passed = await judged(["p99 < 5ms"]);
  assert.equal(planVerdict(0, passed), "pass");
  assert.equal(planVerdict(5, passed), "invalid");
  assert.equal(planVerdict(5, undefined), "invalid");
  assert.equal(jobExitCode({ status: "invalid" }, 5, "fail"), 5);
});
