import assert from "node:assert/strict";
import { settingsMain } from "../../../ci/action/settings.ts";
import { commandLines } from "../../_helpers/runner_commands.ts";

async function outputsOf(env: Record<string, string>) {
  const file = await Deno.makeTempFile({ prefix: "tailgate-settings-" });
  const printed: string[] = [];
  try {
    const code = await settingsMain({ ...env, GITHUB_OUTPUT: file }, (l) => printed.push(l));
    const outputs: Record<string, string> = {};
    for (const m of (await Deno.readTextFile(file)).matchAll(/^([\w-]+)<<(\S+)\n(.*?)\n\2$/gms)) {
      outputs[m[1]] = m[3];
    }
    return { code, outputs, printed };
  } finally {
    await Deno.remove(file);
  }
}

Deno.test("settings on a push to the default branch: cache mode, updated, keyed by the run", async () => {
  const { code, outputs, printed } = await outputsOf({
    GITHUB_EVENT_NAME: "push",
    GITHUB_REF: "refs/heads/main",
    TAILGATE_DEFAULT_BRANCH: "main",
    GITHUB_RUN_ID: "9",
    GITHUB_RUN_ATTEMPT: "1",
    RUNNER_OS: "Linux",
    RUNNER_ARCH: "X64",
  });
  assert.equal(code, 0);
  assert.deepEqual(outputs, {
    mode: "cache",
    "baseline-dir": ".tailgate/baselines",
    update: "true",
    "cache-key": "tailgate-baselines-Linux-X64-9-1",
    "cache-restore-prefix": "tailgate-baselines-Linux-X64-",
    history: "true",
  });
  assert.deepEqual(printed, ["tailgate baselines: cache in .tailgate/baselines, updated"]);
});

Deno.test("settings resolves history: auto runs it only after an update on the default branch", async () => {
  const push = (ref: string, extra: Record<string, string> = {}) =>
    outputsOf({
      GITHUB_EVENT_NAME: "push",
      GITHUB_REF: ref,
      TAILGATE_DEFAULT_BRANCH: "main",
      ...extra,
    });
  assert.equal((await push("refs/heads/main")).outputs.history, "true");
  // update-baseline: true updates a feature branch's push, but auto keeps the history for main.
  const feature = await push("refs/heads/feature", { TAILGATE_UPDATE_BASELINE: "true" });
  assert.deepEqual([feature.outputs.update, feature.outputs.history], ["true", "false"]);
  assert.equal(
    (await push("refs/heads/main", { TAILGATE_HISTORY: "false" })).outputs.history,
    "false",
  );
  const pr = await outputsOf({ GITHUB_EVENT_NAME: "pull_request", TAILGATE_HISTORY: "true" });
  assert.deepEqual([pr.outputs.update, pr.outputs.history], ["false", "true"]);
  const shard = await push("refs/heads/main", { TAILGATE_HISTORY: "true", TAILGATE_SHARD: "0/2" });
  assert.equal(shard.outputs.history, "false");
  assert.ok(
    shard.printed.includes(
      "::notice::a shard keeps no history (its merge job does): history ignored",
    ),
    shard.printed.join("\n"),
  );
});

Deno.test("settings on a pull request: read only; a wrong input is an error annotation and exit 2", async () => {
  const pr = await outputsOf({
    GITHUB_EVENT_NAME: "pull_request",
    GITHUB_REF: "refs/pull/3/merge",
    TAILGATE_DEFAULT_BRANCH: "main",
    TAILGATE_BASELINE: "branch",
  });
  assert.equal(pr.outputs.update, "false");
  assert.equal(pr.outputs.mode, "branch");
  const bad = await outputsOf({ TAILGATE_BASELINE: "s3" });
  assert.equal(bad.code, 2);
  assert.deepEqual(bad.outputs, {});
  assert.deepEqual(bad.printed, [
    "::error::baseline: `s3` is not one of cache, branch, committed, none",
  ]);
});

Deno.test("settings prints a hostile baseline-dir input inert: the runner runs no command from it", async () => {
  const { printed } = await outputsOf({
    GITHUB_EVENT_NAME: "pull_request",
    TAILGATE_BASELINE_DIR: "perf ##[error]legacy\n::error title=INJECTED::via-input",
  });
  assert.deepEqual(commandLines(printed), [], printed.join("\n"));
  assert.equal(
    printed.at(-1),
    "tailgate baselines: cache in perf #\\#[error]legacy\\n::error title=INJECTED::via-input, read only",
  );
});
