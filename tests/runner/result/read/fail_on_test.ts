import assert from "node:assert/strict";
import { type Problem, problemText } from "../../../../runner/model/result.ts";
import {
  CLI_FAIL_ON_VALUES,
  DEFAULT_FAIL_ON,
  exitCodeOf,
  FAIL_ON_VALUES,
  type FailOn,
  failsUnder,
  readFailOn,
} from "../../../../runner/result/read/fail_on.ts";
import { EXIT_CODES } from "../../../../runner/model/exit_codes.ts";
import type { Verdict, VerdictStatus } from "../../../../runner/model/run_result.ts";
import { gatesVerdict, type VerdictScope } from "../../../../runner/result/read/mod.ts";

const PASS: VerdictScope = { status: "pass" };
const FAIL: VerdictScope = { status: "fail" };
const INVALID: VerdictScope = { status: "invalid" };
const SLO_UNDECIDED: VerdictScope = { status: "inconclusive" };
const REGRESSION_UNDECIDED: VerdictScope = {
  status: "inconclusive",
  regressionOnly: true,
  runnerOnly: true,
};
/** An SLO the machine's contention (or the generator) left undecided: the runner's, no more. */
const RUNNER_UNDECIDED: VerdictScope = { status: "inconclusive", runnerOnly: true };

Deno.test("failsUnder(): each fail-on, strictest first, reds exactly what it names", () => {
  const table: Array<[VerdictScope, boolean, boolean, boolean, boolean, boolean]> = [
    // verdict,  inconclusive, inconclusive-slo, inconclusive-sampling, fail, never
    [PASS, false, false, false, false, false],
    [REGRESSION_UNDECIDED, true, false, false, false, false],
    [RUNNER_UNDECIDED, true, true, false, false, false],
    [SLO_UNDECIDED, true, true, true, false, false],
    [INVALID, true, true, true, true, false],
    [FAIL, true, true, true, true, false],
  ];
  for (const [verdict, ...red] of table) {
    FAIL_ON_VALUES.forEach((failOn, i) => {
      assert.equal(failsUnder(verdict, failOn), red[i], `${JSON.stringify(verdict)} ${failOn}`);
    });
  }
});

Deno.test("the default reds an SLO too few requests left undecided, not what the runner left", () => {
  assert.equal(DEFAULT_FAIL_ON, "inconclusive-sampling");
  assert.equal(failsUnder(SLO_UNDECIDED, DEFAULT_FAIL_ON), true);
  assert.equal(failsUnder(RUNNER_UNDECIDED, DEFAULT_FAIL_ON), false);
  assert.equal(failsUnder(REGRESSION_UNDECIDED, DEFAULT_FAIL_ON), false);
  // A result stored before runnerOnly existed: regression checks alone are still a warning.
  assert.equal(
    failsUnder({ status: "inconclusive", regressionOnly: true }, DEFAULT_FAIL_ON),
    false,
  );
});

Deno.test("gatesVerdict() tells an SLO the runner left undecided from one too few requests did", () => {
  const slo = (causes: Verdict["causes"]): Verdict => ({
    kind: "slo",
    name: "p99 < 10ms",
    status: "inconclusive",
    stageIndexes: [0],
    message: "",
    ...(causes ? { causes } : {}),
  });
  for (const causes of [["contention"], ["generator"], ["schedule"], ["contention", "schedule"]]) {
    const v = gatesVerdict([slo(causes as Verdict["causes"])]);
    assert.equal(v.runnerOnly, true, causes.join());
    assert.equal(exitCodeOf(v), 0, causes.join());
  }
  for (const causes of [["sampling"], ["sampling", "generator"], undefined]) {
    const v = gatesVerdict([slo(causes as Verdict["causes"])]);
    assert.equal(v.runnerOnly, undefined, String(causes));
    assert.equal(exitCodeOf(v), 3, String(causes));
  }
});

Deno.test("readFailOn() reads every value, the old name insufficient, and refuses the rest", () => {
  for (const value of FAIL_ON_VALUES) {
    assert.deepEqual(readFailOn(value), { ok: true, value: value });
  }
  assert.deepEqual(readFailOn("insufficient"), { ok: true, value: "inconclusive" });
  const never = readFailOn("never", CLI_FAIL_ON_VALUES);
  assert.equal(never.ok, false);
  assert.match(
    problemText((never as { problems: Problem[] }).problems[0]),
    /`never` is not one of inconclusive, inconclusive-slo, inconclusive-sampling, fail$/,
  );
  assert.equal(readFailOn("slo").ok, false);
});

/** The exit code of gates judged on their own (`tailgate compare`): their verdict's. */
function gateExitCode(gates: readonly Verdict[], options: { failOn?: FailOn } = {}) {
  return exitCodeOf(gatesVerdict(gates), options);
}

function verdicts(...statuses: VerdictStatus[]): Verdict[] {
  return statuses.map((status, i) => ({
    kind: i % 2 === 0 ? "slo" : "regression",
    name: `gate ${i}`,
    status,
    stageIndexes: [0],
    message: "",
  }));
}

Deno.test("an invalid verdict exits 3 over inconclusive ones, even when they are allowed", () => {
  assert.equal(gateExitCode(verdicts("pass", "inconclusive", "invalid")), EXIT_CODES.invalidRun);
  assert.equal(
    gateExitCode(verdicts("inconclusive", "invalid"), { failOn: "fail" }),
    EXIT_CODES.invalidRun,
  );
  assert.equal(EXIT_CODES.invalidRun, 3);
});

Deno.test("a gate failed beyond doubt exits 1 even beside an invalid one", () => {
  assert.equal(gateExitCode(verdicts("pass", "fail", "invalid")), EXIT_CODES.gateFailed);
});

Deno.test("a failed gate exits 1, over inconclusive verdicts", () => {
  assert.equal(gateExitCode(verdicts("pass", "fail")), 1);
  assert.equal(gateExitCode(verdicts("inconclusive", "fail", "pass")), EXIT_CODES.gateFailed);
  assert.equal(gateExitCode(verdicts("fail"), { failOn: "fail" }), 1);
});

Deno.test("an SLO undecided for want of requests exits 3 by default and under inconclusive, 0 under fail", () => {
  const slo = verdicts("inconclusive", "pass");
  assert.equal(gateExitCode(slo), 3);
  assert.equal(gateExitCode(slo, { failOn: "inconclusive" }), 3);
  assert.equal(gateExitCode(slo, { failOn: "inconclusive-slo" }), 3);
  assert.equal(gateExitCode(slo, { failOn: "fail" }), 0);
  // An undecided SLO beside an undecided regression check is still an undecided SLO.
  assert.equal(gateExitCode(verdicts("inconclusive", "inconclusive")), 3);
});

Deno.test("undecided regression checks alone exit 0 by default, 3 only under inconclusive", () => {
  const regression = verdicts("pass", "inconclusive");
  assert.equal(gateExitCode(regression), 0);
  assert.equal(gateExitCode(regression, { failOn: "inconclusive-slo" }), 0);
  assert.equal(gateExitCode(regression, { failOn: "inconclusive" }), 3);
  assert.equal(gateExitCode(regression, { failOn: "fail" }), 0);
});

Deno.test("all passing, or no gate at all, exits 0", () => {
  assert.equal(gateExitCode(verdicts("pass", "pass", "pass")), EXIT_CODES.ok);
  assert.equal(gateExitCode([]), 0);
});
