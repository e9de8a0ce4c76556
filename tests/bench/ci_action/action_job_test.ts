import assert from "node:assert/strict";
import { join } from "node:path";
import {
  type Action,
  type ActionStep,
  readAction,
  runJob,
} from "../../../bench/ci_action/action_job.ts";
import { INPUT_DEFAULTS } from "../../../ci/action/action_inputs.ts";
import { liveGroupMembers } from "../../../runner/service/mod.ts";
import { REPO_ROOT } from "../../_helpers/source_files.ts";

const event = {
  eventName: "push",
  ref: "refs/heads/main",
  sha: "a".repeat(40),
  defaultBranch: "main",
  runId: 1,
};

/** An action of shell steps only, as readAction would give it. */
function action(root: string, steps: Action["steps"]): Action {
  return {
    root,
    defaults: { greeting: "hello", other: "x" },
    outputs: { said: "${{ steps.first.outputs.said }}", none: "${{ steps.gone.outputs.x }}" },
    steps,
  };
}

const step = (name: string, run: string, more: Partial<ActionStep> = {}): ActionStep => ({
  name,
  run,
  env: {},
  continueOnError: false,
  ...more,
});

Deno.test("readAction reads every input's default as the action's scripts state them", async () => {
  const read = await readAction(REPO_ROOT);
  assert.deepEqual(read.defaults, { ...INPUT_DEFAULTS });
  assert.match(read.outputs.verdict, /steps\.run\.outputs\.verdict/);
  const run = read.steps.find((s) => "run" in s && s.id === "run");
  assert.ok(run && "run" in run && run.continueOnError, "the run step may fail: the gate decides");
});

Deno.test("runJob runs the shell steps in order, with their env, and collects what they leave", async () => {
  const ws = await Deno.makeTempDir();
  try {
    const job = await runJob(
      action(ws, [
        { name: "Set up", uses: "denoland/setup-deno@v2" },
        step(
          "first",
          [
            'echo "said=$SAID" >> "$GITHUB_OUTPUT"',
            'printf "block<<EOF\\ntwo\\nlines\\nEOF\\n" >> "$GITHUB_OUTPUT"',
            'echo "## summary" >> "$GITHUB_STEP_SUMMARY"',
            'echo "::warning title=a%3Ab::shown"',
          ].join("\n"),
          { id: "first", env: { SAID: "${{ inputs.greeting }} ${{ github.event_name }}" } },
        ),
        step("may fail", "exit 3", { continueOnError: true }),
        step(
          "guarded",
          'echo "::stop-commands::tok"; echo "::error::not a command"; echo "::tok::"',
          { if: "steps.first.outputs.said == 'HELLO PUSH'" },
        ),
        step("fails", "exit 4"),
        step("skipped after a failure", 'echo "::error::never"'),
        step("always", 'echo "::notice::after"', { if: "${{ !cancelled() }}" }),
      ]),
      {
        workspace: ws,
        inputs: {},
        event,
        core: "0",
        timeoutMs: 60_000,
        logFile: join(ws, "job.log"),
      },
    );
    assert.equal(job.exitCode, 4);
    assert.deepEqual(job.outputs.first, { said: "hello push", block: "two\nlines" });
    assert.deepEqual(job.actionOutputs, { said: "hello push", none: "" });
    assert.deepEqual(job.annotations, [
      { level: "warning", title: "a:b", message: "shown" },
      { level: "notice", message: "after" },
    ]);
    assert.equal(job.summary, "## summary\n");
    assert.deepEqual(job.steps.map((s) => [s.name, s.exitCode]), [
      ["first", 0],
      ["may fail", 3],
      ["guarded", 0],
      ["fails", 4],
      ["skipped after a failure", undefined],
      ["always", 0],
    ]);
    assert.deepEqual(job.unresolved, []);
  } finally {
    await Deno.remove(ws, { recursive: true });
  }
});

Deno.test("a job past its time has its running step's whole process group ended", async () => {
  const ws = await Deno.makeTempDir();
  try {
    const job = await runJob(
      action(ws, [step("sleeps", 'echo $$ > pgid; sleep 60 & sleep 60; echo "::notice::late"')]),
      { workspace: ws, inputs: {}, event, core: "0", timeoutMs: 500, logFile: join(ws, "log") },
    );
    assert.equal(job.steps[0].timedOut, true);
    assert.notEqual(job.exitCode, 0);
    assert.deepEqual(job.annotations, []);
    const pgid = Number(await Deno.readTextFile(join(ws, "pgid")));
    assert.deepEqual(liveGroupMembers(pgid), []);
  } finally {
    await Deno.remove(ws, { recursive: true });
  }
});
