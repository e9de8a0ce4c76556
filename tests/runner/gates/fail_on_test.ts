import assert from "node:assert/strict";
import { type Problem, problemText } from "../../../runner/model/result.ts";
import {
  CLI_FAIL_ON_VALUES,
  DEFAULT_FAIL_ON,
  FAIL_ON_VALUES,
  failsUnder,
  readFailOn,
  regressionOnlyWarning,
  type VerdictScope,
} from "../../../runner/gates/fail_on.ts";

const PASS: VerdictScope = { status: "pass" };
const FAIL: VerdictScope = { status: "fail" };
const INVALID: VerdictScope = { status: "invalid" };
const SLO_UNDECIDED: VerdictScope = { status: "inconclusive" };
const REGRESSION_UNDECIDED: VerdictScope = { status: "inconclusive", regressionOnly: true };

Deno.test("failsUnder(): each fail-on, strictest first, reds exactly what it names", () => {
  const table: Array<[VerdictScope, boolean, boolean, boolean, boolean]> = [
    // verdict,            inconclusive, inconclusive-slo, fail, never
    [PASS, false, false, false, false],
    [REGRESSION_UNDECIDED, true, false, false, false],
    [SLO_UNDECIDED, true, true, false, false],
    [INVALID, true, true, true, false],
    [FAIL, true, true, true, false],
  ];
  for (const [verdict, ...red] of table) {
    FAIL_ON_VALUES.forEach((failOn, i) => {
      assert.equal(failsUnder(verdict, failOn), red[i], `${JSON.stringify(verdict)} ${failOn}`);
    });
  }
});

Deno.test("the default reds an undecided SLO but not undecided regression checks alone", () => {
  assert.equal(DEFAULT_FAIL_ON, "inconclusive-slo");
  assert.equal(failsUnder(SLO_UNDECIDED, DEFAULT_FAIL_ON), true);
  assert.equal(failsUnder(REGRESSION_UNDECIDED, DEFAULT_FAIL_ON), false);
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
    /`never` is not one of inconclusive, inconclusive-slo, fail$/,
  );
  assert.equal(readFailOn("slo").ok, false);
});

Deno.test("regressionOnlyWarning() speaks only when regression checks alone are undecided", () => {
  const warning = regressionOnlyWarning(REGRESSION_UNDECIDED);
  assert.match(warning!, /^only regression checks are undecided: a warning, not a failure/);
  assert.match(warning!, /--fail-on inconclusive/);
  for (const v of [PASS, FAIL, INVALID, SLO_UNDECIDED]) {
    assert.equal(regressionOnlyWarning(v), undefined, JSON.stringify(v));
  }
});
