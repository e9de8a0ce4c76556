import assert from "node:assert/strict";
import { problemText } from "../../../runner/model/result.ts";
import { DEFAULT_FAIL_ON } from "../../../runner/result/read/mod.ts";
import { DEFAULT_CONFIRM } from "../../../runner/gates/confirm_gates.ts";
import { DEFAULT_JUNIT_INCONCLUSIVE } from "../../../reporters/junit/mod.ts";
import { DEFAULT_ROUNDS } from "../../../runner/ab/run_ab.ts";
import {
  INPUT_DEFAULTS,
  inputValue,
  inputVariable,
  readRunInputs,
} from "../../../ci/action/action_inputs.ts";

Deno.test("inputVariable() is TAILGATE_ and the input's name in upper snake case", () => {
  assert.equal(inputVariable("baseline-dir"), "TAILGATE_BASELINE_DIR");
  assert.equal(inputVariable("plans"), "TAILGATE_PLANS");
  assert.equal(inputValue({ TAILGATE_OUT: "  results " }, "out"), "results");
  assert.equal(inputValue({}, "out"), INPUT_DEFAULTS.out);
});

Deno.test("readRunInputs() with nothing set runs the default plans, reports and baseline read-only", () => {
  const r = readRunInputs({});
  assert.ok(r.ok);
  assert.deepEqual(r.value, {
    plans: ["plans/**/*.yaml"],
    out: "tailgate-out",
    reports: ["json", "md", "html", "junit", "hlog"],
    baselineDir: ".tailgate/baselines",
    updateBaseline: false,
    committed: false,
    failOn: "inconclusive-sampling",
    junitInconclusive: "auto",
    confirm: "auto",
  });
});

Deno.test("readRunInputs() drops the baseline for mode none and keeps the shard timing", () => {
  const r = readRunInputs({
    TAILGATE_BASELINE: "none",
    TAILGATE_UPDATE_BASELINE: "true",
    TAILGATE_SHARD: "0/2",
    TAILGATE_START_AT: "2026-11-22T10:00:00Z",
    TAILGATE_TARGET: "http://127.0.0.1:9",
    TAILGATE_FAIL_ON: "never",
  });
  assert.ok(r.ok);
  assert.equal(r.value.baselineDir, undefined);
  assert.equal(r.value.updateBaseline, false);
  assert.deepEqual(
    [r.value.shard, r.value.startAt, r.value.target, r.value.failOn],
    ["0/2", "2026-11-22T10:00:00Z", "http://127.0.0.1:9", "never"],
  );
});

Deno.test("readRunInputs() reports every wrong input at once", () => {
  const r = readRunInputs({
    TAILGATE_FAIL_ON: "error",
    TAILGATE_BASELINE: "s3",
    TAILGATE_UPDATE_BASELINE: "auto",
    TAILGATE_SHARD: "0/2",
    TAILGATE_MERGE: "shards",
    TAILGATE_OUT: "",
  });
  assert.equal(r.ok, false);
  if (!r.ok) {
    assert.deepEqual(r.problems.map(problemText), [
      "baseline: `s3` is not one of cache, branch, committed, none",
      "TAILGATE_UPDATE_BASELINE: `auto` must be true or false here",
      "fail-on: `error` is not one of inconclusive, inconclusive-slo, inconclusive-sampling, fail, never",
      "merge and shard exclude each other: a merge job runs no plan",
      "out: empty; name the output folder, e.g. tailgate-out",
    ]);
  }
});

Deno.test("readRunInputs() reads the A/B mode's targets, and refuses half of it or a mix with shards", () => {
  const r = readRunInputs({
    TAILGATE_AB_BASE: "http://127.0.0.1:8081",
    TAILGATE_AB_HEAD: "http://127.0.0.1:8082",
    TAILGATE_AB_BASE_START: "./serve 8081",
  });
  assert.ok(r.ok);
  assert.deepEqual(r.value.ab, {
    base: "http://127.0.0.1:8081",
    head: "http://127.0.0.1:8082",
    baseStart: "./serve 8081",
    rounds: 5,
  });
  const bad = readRunInputs({
    TAILGATE_AB_BASE: "http://127.0.0.1:8081",
    TAILGATE_SHARD: "0/2",
    TAILGATE_AB_ROUNDS: "2",
  });
  assert.ok(!bad.ok);
  assert.deepEqual(
    bad.problems.map(problemText).filter((e) => /ab/.test(e)).length,
    3,
    bad.problems.map(problemText).join("\n"),
  );
});

Deno.test("readRunInputs() reads start and ready, and refuses them with merge or the A/B mode", () => {
  const r = readRunInputs({ TAILGATE_START: "npm start", TAILGATE_READY: "http://127.0.0.1:1/h" });
  assert.ok(r.ok);
  assert.deepEqual([r.value.start, r.value.ready], ["npm start", "http://127.0.0.1:1/h"]);
  const wrong = readRunInputs({
    TAILGATE_START: "npm start",
    TAILGATE_MERGE: "shards",
    TAILGATE_AB_BASE: "http://127.0.0.1:8081",
    TAILGATE_AB_HEAD: "http://127.0.0.1:8082",
  });
  assert.ok(!wrong.ok);
  assert.match(wrong.problems.map(problemText).join("\n"), /merge and start exclude each other/);
  assert.match(
    wrong.problems.map(problemText).join("\n"),
    /runs no shard, merge, target, confirm or start/,
  );
  const lone = readRunInputs({ TAILGATE_READY: "http://127.0.0.1:1/h" });
  assert.ok(!lone.ok);
  assert.match(lone.problems.map(problemText).join("\n"), /ready needs start/);
});

Deno.test("readRunInputs() reads each A/B side's readiness URL, only with its start command", () => {
  const r = readRunInputs({
    TAILGATE_AB_BASE: "http://127.0.0.1:8081",
    TAILGATE_AB_HEAD: "http://127.0.0.1:8082",
    TAILGATE_AB_BASE_START: "./serve 8081",
    TAILGATE_AB_BASE_READY: "http://127.0.0.1:8081/health",
    TAILGATE_AB_HEAD_START: "./serve 8082",
  });
  assert.ok(r.ok);
  assert.equal(r.value.ab?.baseReady, "http://127.0.0.1:8081/health");
  assert.equal(r.value.ab?.headReady, undefined);
  const bad = readRunInputs({
    TAILGATE_AB_BASE: "http://127.0.0.1:8081",
    TAILGATE_AB_HEAD: "http://127.0.0.1:8082",
    TAILGATE_AB_HEAD_READY: "http://127.0.0.1:8082/health",
  });
  assert.ok(!bad.ok);
  assert.deepEqual(bad.problems.map(problemText), [
    "ab-head-ready needs ab-head-start: the command that starts head",
  ]);
});

Deno.test("readRunInputs() reads fail-fast for runs and the A/B mode's head, and refuses it with merge", () => {
  const on = readRunInputs({ TAILGATE_FAIL_FAST: "true" });
  assert.ok(on.ok);
  assert.equal(on.value.failFast, true);
  const off = readRunInputs({ TAILGATE_FAIL_FAST: "false" });
  assert.ok(off.ok);
  assert.equal(off.value.failFast, false);
  // Empty: each plan's fail_fast decides.
  const plan = readRunInputs({ TAILGATE_FAIL_FAST: "" });
  assert.ok(plan.ok);
  assert.equal("failFast" in plan.value, false);
  const ab = readRunInputs({
    TAILGATE_AB_BASE: "http://127.0.0.1:8081",
    TAILGATE_AB_HEAD: "http://127.0.0.1:8082",
    TAILGATE_FAIL_FAST: "true",
  });
  assert.ok(ab.ok);
  assert.equal(ab.value.ab?.failFast, true);
  const bad = readRunInputs({ TAILGATE_FAIL_FAST: "yes", TAILGATE_MERGE: "shards" });
  assert.ok(!bad.ok);
  assert.deepEqual(bad.problems.map(problemText), [
    "fail-fast: `yes` is not true, false or empty (each plan's fail_fast)",
    "merge and fail-fast exclude each other: a merge job runs no plan",
  ]);
});

Deno.test("the Action's fail-on, confirm and ab-rounds defaults are tailgate's own", () => {
  assert.equal(INPUT_DEFAULTS["fail-on"], DEFAULT_FAIL_ON);
  assert.equal(INPUT_DEFAULTS.confirm, DEFAULT_CONFIRM);
  assert.equal(INPUT_DEFAULTS["ab-rounds"], String(DEFAULT_ROUNDS));
});

Deno.test("readRunInputs() reads junit-inconclusive, and refuses what tailgate does not take", () => {
  const read = readRunInputs({ TAILGATE_JUNIT_INCONCLUSIVE: " failure " });
  assert.ok(read.ok);
  assert.equal(read.value.junitInconclusive, "failure");
  const bad = readRunInputs({ TAILGATE_JUNIT_INCONCLUSIVE: "error" });
  assert.ok(!bad.ok);
  assert.match(
    problemText(bad.problems[0]),
    /^junit-inconclusive: `error` is not one of auto, skipped, failure; /,
  );
  assert.equal(INPUT_DEFAULTS["junit-inconclusive"], DEFAULT_JUNIT_INCONCLUSIVE);
});

Deno.test("readRunInputs() gives a shard job without start-at its workflow run's seed, one per attempt", () => {
  const shard = (extra: Record<string, string>) =>
    readRunInputs({ TAILGATE_SHARD: "1/2", GITHUB_RUN_ID: "7100", ...extra });
  const first = shard({ GITHUB_RUN_ATTEMPT: "1" });
  const again = shard({ GITHUB_RUN_ATTEMPT: "1", TAILGATE_SHARD: "0/2" });
  const rerun = shard({ GITHUB_RUN_ATTEMPT: "2" });
  assert.ok(first.ok && again.ok && rerun.ok);
  assert.equal(typeof first.value.shardSeed, "number");
  assert.equal(again.value.shardSeed, first.value.shardSeed, "the matrix's shards share it");
  assert.notEqual(rerun.value.shardSeed, first.value.shardSeed, "a rerun draws anew");
  // A start instant already gives the shards one seed; an unsharded job draws its own.
  const timed = shard({ TAILGATE_START_AT: "2026-11-22T10:00:00Z" });
  assert.ok(timed.ok);
  assert.equal(timed.value.shardSeed, undefined);
  const whole = readRunInputs({ GITHUB_RUN_ID: "7100" });
  assert.ok(whole.ok);
  assert.equal(whole.value.shardSeed, undefined);
});
