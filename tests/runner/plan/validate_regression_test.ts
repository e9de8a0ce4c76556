import assert from "node:assert/strict";
import { REGRESSION_METRICS } from "../../../runner/plan/validate_regression.ts";
import { DEFAULT_REGRESSION_FLOORS } from "../../../runner/gates/regression/regression_metrics.ts";
import { errorsOf, MINIMAL_PLAN, parseText } from "../../_helpers/plan_fixtures.ts";

/** MINIMAL_PLAN is 7 lines: `regression` is on line 8, its first entry on line 9. */
function parseRegression(yaml: string) {
  return parseText(`${MINIMAL_PLAN}${yaml}`);
}

Deno.test("regression floors are read as fractions, percentage points for error_rate", () => {
  const { plan, issues } = parseRegression(
    "regression:\n  p99: 10%\n  p99.9: 25%\n  error_rate: 0.1%\n  throughput: 5%\n  max: 0%\n",
  );
  assert.deepEqual(issues, []);
  assert.deepEqual(plan?.regression, {
    p99: 0.1,
    "p99.9": 0.25,
    error_rate: 0.001,
    throughput: 0.05,
    max: 0,
  });
  assert.equal(parseText(MINIMAL_PLAN).plan?.regression, undefined, "absent: the defaults");
});

Deno.test("every metric the plan may name is one the regression gate judges", () => {
  const { plan, issues } = parseRegression(
    `regression:\n${REGRESSION_METRICS.map((m) => `  ${m}: 12%\n`).join("")}`,
  );
  assert.deepEqual(issues, []);
  assert.deepEqual(Object.keys(plan!.regression!), [...REGRESSION_METRICS]);
  for (const m of Object.keys(DEFAULT_REGRESSION_FLOORS)) {
    assert.ok((REGRESSION_METRICS as readonly string[]).includes(m), m);
  }
});

Deno.test("an unknown metric is located at its key with a did-you-mean", () => {
  const parse = parseRegression("regression:\n  p99: 10%\n  thruput: 5%\n  p99_9: 10%\n");
  assert.equal(parse.plan, undefined);
  const [thruput, p999] = parse.issues;
  assert.deepEqual(
    [thruput.line, thruput.col, thruput.length, thruput.path],
    [10, 3, 7, "regression.thruput"],
  );
  assert.equal(thruput.message, "unknown key `thruput` in `regression`");
  assert.equal(thruput.hint, "did you mean `throughput`?");
  assert.equal(p999.hint, "did you mean `p99.9`?");
  assert.equal(parse.issues.length, 2);
  const [latency] = parseRegression("regression:\n  latency: 5%\n").issues;
  assert.match(latency.hint!, /known keys: p50, p90, p99, p99\.9, max, mean, error_rate/);
});

Deno.test("a floor that is not a percentage is located at its value", () => {
  const parse = parseRegression("regression:\n  p99: fast\n  max: 10\n  mean: 150%\n");
  assert.equal(parse.plan, undefined);
  assert.deepEqual(errorsOf(parse), [
    "9:8 `fast` is not a percentage",
    "10:8 `10` is not a percentage",
    "11:9 percentage `150%` is outside 0%..100%",
  ]);
  assert.deepEqual(parse.issues.map((i) => i.path), [
    "regression.p99",
    "regression.max",
    "regression.mean",
  ]);
  assert.match(parse.issues[0].hint!, /e\.g\. `10%`/);
});

Deno.test("an empty or non-mapping `regression` is an error", () => {
  assert.deepEqual(errorsOf(parseRegression("regression: {}\n")), [
    "8:13 `regression` lists no metric",
  ]);
  assert.equal(parseRegression("regression: {}\n").plan, undefined);
  assert.deepEqual(errorsOf(parseRegression("regression: 10%\n")), [
    "8:13 regression must be a mapping of keys to values",
  ]);
});
