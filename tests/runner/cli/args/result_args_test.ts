import assert from "node:assert/strict";
import { type Problem, problemText } from "../../../../runner/model/result.ts";
import { failOnArg, readResultArgs } from "../../../../runner/cli/args/result_args.ts";

Deno.test("failOnArg(): the default is inconclusive-sampling; --fail-on takes the CLI's values", () => {
  assert.deepEqual(failOnArg({}), { ok: true, value: "inconclusive-sampling" });
  for (const value of ["inconclusive", "inconclusive-slo", "inconclusive-sampling", "fail"]) {
    assert.deepEqual(failOnArg({ "fail-on": value }), { ok: true, value: value });
  }
  assert.deepEqual(failOnArg({ "fail-on": "insufficient" }), { ok: true, value: "inconclusive" });
});

Deno.test("failOnArg(): never and unknown values are refused, naming what --fail-on takes", () => {
  for (const value of ["never", "slo", ""]) {
    const read = failOnArg({ "fail-on": value });
    assert.equal(read.ok, false, value);
    assert.match(
      problemText((read as { problems: Problem[] }).problems[0]),
      /^--fail-on: `.*` is not one of inconclusive, inconclusive-slo, inconclusive-sampling, fail$/,
    );
  }
});

Deno.test("failOnArg(): --allow-inconclusive is --fail-on fail, and refuses a contradicting --fail-on", () => {
  assert.deepEqual(failOnArg({ "allow-inconclusive": true }), { ok: true, value: "fail" });
  assert.deepEqual(failOnArg({ "allow-insufficient": true }), { ok: true, value: "fail" });
  assert.deepEqual(failOnArg({ "allow-inconclusive": true, "fail-on": "fail" }), {
    ok: true,
    value: "fail",
  });
  const both = failOnArg({ "allow-inconclusive": true, "fail-on": "inconclusive" });
  assert.equal(both.ok, false);
  assert.match(
    problemText((both as { problems: Problem[] }).problems[0]),
    /contradicts `--fail-on inconclusive`/,
  );
});

Deno.test("readResultArgs() carries --fail-on into the run's options, or its mistake", () => {
  const read = readResultArgs({ "fail-on": "inconclusive" });
  assert.ok(read.ok);
  assert.equal(read.value.failOn, "inconclusive");
  assert.deepEqual(readResultArgs({ "fail-on": "never" }), {
    ok: false,
    problems: [{
      message:
        "--fail-on: `never` is not one of inconclusive, inconclusive-slo, inconclusive-sampling, fail",
    }],
  });
});

Deno.test("readResultArgs() carries --junit-inconclusive into the run's options, or its mistake", () => {
  const read = readResultArgs({ "junit-inconclusive": "failure" });
  assert.ok(read.ok);
  assert.equal(read.value.junitInconclusive, "failure");
  const auto = readResultArgs({});
  assert.ok(auto.ok);
  assert.equal(auto.value.junitInconclusive, "auto");
  const bad = readResultArgs({ "junit-inconclusive": "error" });
  assert.equal(bad.ok, false);
  assert.match(
    problemText((bad as { problems: Problem[] }).problems[0]),
    /^--junit-inconclusive: `error` is not one of auto, skipped, failure; /,
  );
});
