import assert from "node:assert/strict";
import { problemText } from "../../../runner/model/result.ts";
import {
  baselinePolicy,
  type JobContext,
  jobContext,
  type PolicyInputs,
} from "../../../ci/action/baseline_policy.ts";

const INPUTS: PolicyInputs = {
  mode: "cache",
  baselineDir: ".tailgate/baselines",
  update: "auto",
  cacheKey: "tailgate-baselines",
};
const RUNNER = {
  defaultBranch: "main",
  runId: "77",
  runAttempt: "2",
  runnerOs: "Linux",
  runnerArch: "X64",
};

function decide(inputs: Partial<PolicyInputs>, ctx: JobContext) {
  const r = baselinePolicy({ ...INPUTS, ...inputs }, { ...RUNNER, ...ctx });
  if (!r.ok) throw new Error(r.problems.map(problemText).join("; "));
  return r.value;
}

Deno.test("baselinePolicy() updates on a push, schedule or manual run on the default branch only", () => {
  assert.equal(decide({}, { eventName: "push", ref: "refs/heads/main" }).update, true);
  assert.equal(decide({}, { eventName: "schedule", ref: "refs/heads/main" }).update, true);
  assert.equal(decide({}, { eventName: "workflow_dispatch", ref: "refs/heads/main" }).update, true);
  assert.equal(decide({}, { eventName: "push", ref: "refs/heads/feature" }).update, false);
  assert.equal(decide({}, { eventName: "pull_request", ref: "refs/pull/7/merge" }).update, false);
  // A schedule payload without the repository still runs on the default branch.
  assert.equal(
    decide({}, { eventName: "schedule", ref: "refs/heads/trunk", defaultBranch: undefined }).update,
    true,
  );
  assert.equal(decide({}, {}).update, false);
});

Deno.test("baselinePolicy() never lets a pull request update, even when asked, and says so", () => {
  const p = decide({ update: "true" }, { eventName: "pull_request", ref: "refs/pull/7/merge" });
  assert.equal(p.update, false);
  assert.match(p.notes[0], /a pull_request run never updates the baseline/);
  assert.equal(decide({ update: "true" }, { eventName: "push", ref: "refs/heads/x" }).update, true);
  assert.equal(
    decide({ update: "false" }, { eventName: "push", ref: "refs/heads/main" }).update,
    false,
  );
});

Deno.test("baselinePolicy() keys each cache save by run and attempt under a prefix PRs restore from", () => {
  const p = decide({}, { eventName: "push", ref: "refs/heads/main" });
  assert.equal(p.cacheKey, "tailgate-baselines-Linux-X64-77-2");
  assert.equal(p.cacheRestorePrefix, "tailgate-baselines-Linux-X64-");
  assert.ok(p.cacheKey.startsWith(p.cacheRestorePrefix));
  assert.equal(p.baselineDir, ".tailgate/baselines");
});

Deno.test("baselinePolicy() gives a shard and mode none no baseline at all", () => {
  const shard = decide({ shard: "1/4", update: "true" }, {
    eventName: "push",
    ref: "refs/heads/main",
  });
  assert.deepEqual([shard.mode, shard.baselineDir, shard.update], ["none", undefined, false]);
  assert.match(shard.notes[0], /judged by the merge/);
  const none = decide({ mode: "none" }, { eventName: "push", ref: "refs/heads/main" });
  assert.deepEqual([none.mode, none.baselineDir, none.update], ["none", undefined, false]);
});

Deno.test("baselinePolicy() rejects unknown modes and update values, with the accepted ones", () => {
  const r = baselinePolicy(
    { ...INPUTS, mode: "s3", update: "yes", cacheKey: "a,b" },
    RUNNER,
  );
  assert.equal(r.ok, false);
  if (!r.ok) {
    assert.deepEqual(r.problems.map(problemText), [
      "baseline: `s3` is not one of cache, branch, committed, none",
      "update-baseline: `yes` is not auto, true or false",
      "cache-key: `a,b` must be one word without commas",
    ]);
  }
});

Deno.test("jobContext() reads GitHub's variables and treats empty ones as unset", () => {
  assert.deepEqual(
    jobContext({
      GITHUB_EVENT_NAME: "push",
      GITHUB_REF: "refs/heads/main",
      TAILGATE_DEFAULT_BRANCH: "",
      RUNNER_OS: "Linux",
    }),
    {
      eventName: "push",
      ref: "refs/heads/main",
      defaultBranch: undefined,
      runId: undefined,
      runAttempt: undefined,
      runnerOs: "Linux",
      runnerArch: undefined,
    },
  );
});
