import assert from "node:assert/strict";
import { join } from "node:path";
import { baselinesMain } from "../../../ci/action/baselines.ts";
import { gitIn, gitOrigin } from "../../_helpers/git_fixtures.ts";
import { commandLines } from "../../_helpers/runner_commands.ts";

async function main(command: string, env: Record<string, string>) {
  const output = await Deno.makeTempFile({ prefix: "tailgate-baselines-" });
  const printed: string[] = [];
  try {
    const code = await baselinesMain(
      command,
      { ...env, GITHUB_OUTPUT: output },
      (l) => printed.push(l),
    );
    return { code, printed, output: await Deno.readTextFile(output) };
  } finally {
    await Deno.remove(output);
  }
}

Deno.test("baselines save then restore round-trips the history through the branch, with the run in the message", async () => {
  await using repo = await gitOrigin();
  const push = await repo.clone("push");
  const env = {
    TAILGATE_BASELINE: "branch",
    GITHUB_SHA: "0123456789abcdef0123",
    GITHUB_RUN_ID: "555",
  };
  const none = await main("restore", { ...env, GITHUB_WORKSPACE: push });
  assert.deepEqual(none.printed, [
    "no branch tailgate-baselines yet: the first update on the default branch creates it",
  ]);
  assert.match(none.output, /^restored-commit<<(\S+)\n\n\1\n$/);
  await Deno.writeTextFile(join(push, ".tailgate/baselines/shop.json"), "{}\n");
  const saved = await main("save", { ...env, GITHUB_WORKSPACE: push });
  assert.equal(saved.code, 0);
  assert.match(saved.printed[0], /^pushed shop\.json to tailgate-baselines \([0-9a-f]{40}\)$/);
  assert.equal(
    await gitIn(repo.origin, ["log", "-1", "--format=%s", "tailgate-baselines"]),
    "tailgate: baselines after 0123456789ab (run 555) [skip ci]",
  );

  const pr = await repo.clone("pr");
  const restored = await main("restore", { ...env, GITHUB_WORKSPACE: pr });
  const head = await gitIn(repo.origin, ["rev-parse", "tailgate-baselines"]);
  assert.deepEqual(restored.printed, [
    `restored 1 baseline file(s) from tailgate-baselines at ${head}`,
  ]);
  assert.match(restored.output, new RegExp(`^restored-commit<<(\\S+)\\n${head}\\n\\1\\n$`));
  assert.equal(await Deno.readTextFile(join(pr, ".tailgate/baselines/shop.json")), "{}\n");
});

Deno.test("a baseline push that fails is a warning, not a failed job; a wrong command is exit 2", async () => {
  await using repo = await gitOrigin();
  const work = await repo.clone("work");
  await gitIn(work, ["remote", "set-url", "origin", join(repo.root, "gone.git")]);
  await Deno.mkdir(join(work, ".tailgate/baselines"), { recursive: true });
  await Deno.writeTextFile(join(work, ".tailgate/baselines/shop.json"), "{}\n");
  const failed = await main("save", { TAILGATE_BASELINE: "branch", GITHUB_WORKSPACE: work });
  assert.equal(failed.code, 0);
  assert.match(failed.printed[0], /^::warning title=tailgate baselines::baselines not saved: /);
  assert.equal((await main("upload", { GITHUB_WORKSPACE: work })).code, 2);
});

Deno.test("with baseline: committed and no baseline-commit, save only tells the team to commit", async () => {
  await using repo = await gitOrigin();
  const work = await repo.clone("work");
  const { code, printed } = await main("save", {
    TAILGATE_BASELINE: "committed",
    GITHUB_WORKSPACE: work,
    GITHUB_REF_NAME: "main",
  });
  assert.equal(code, 0);
  assert.match(
    printed[0],
    /^::notice title=tailgate baselines::\.tailgate\/baselines was updated .* set baseline-commit: true$/,
  );
  assert.equal(await gitIn(repo.origin, ["rev-list", "--count", "main"]), "1");
});

Deno.test("after a failed restore, save warns and keeps the branch's history instead of replacing it", async () => {
  await using repo = await gitOrigin();
  const seed = await repo.clone("seed");
  await Deno.mkdir(join(seed, ".tailgate/baselines"), { recursive: true });
  await Deno.writeTextFile(join(seed, ".tailgate/baselines/shop.json"), "10 runs\n");
  await main("save", { TAILGATE_BASELINE: "branch", GITHUB_WORKSPACE: seed });

  const job = await repo.clone("job");
  const url = await gitIn(job, ["remote", "get-url", "origin"]);
  await gitIn(job, ["remote", "set-url", "origin", join(repo.root, "gone.git")]);
  const restore = await main("restore", { TAILGATE_BASELINE: "branch", GITHUB_WORKSPACE: job });
  assert.match(restore.printed[0], /^::warning title=tailgate baselines::baselines not restored: /);
  await gitIn(job, ["remote", "set-url", "origin", url]);
  // The run started a fresh history, as tailgate does with no baseline file.
  await Deno.mkdir(join(job, ".tailgate/baselines"), { recursive: true });
  await Deno.writeTextFile(join(job, ".tailgate/baselines/shop.json"), "1 run\n");
  const saved = await main("save", { TAILGATE_BASELINE: "branch", GITHUB_WORKSPACE: job });
  assert.deepEqual(saved.printed, [
    "baselines unchanged: nothing pushed to tailgate-baselines",
    "::warning title=tailgate baselines::shop.json left as tailgate-baselines has them: this job " +
    "did not restore them, so its copies lack their runs",
  ]);
  assert.equal(await gitIn(repo.origin, ["show", "tailgate-baselines:shop.json"]), "10 runs");
});

Deno.test("baselines prints a hostile branch input inert: the runner runs no command from it", async () => {
  await using repo = await gitOrigin();
  const work = await repo.clone("work");
  const { printed } = await main("restore", {
    TAILGATE_BASELINE: "branch",
    TAILGATE_BASELINE_BRANCH: "perf ##[error]legacy\n::error title=INJECTED::via-input",
    GITHUB_WORKSPACE: work,
  });
  assert.ok(printed.length > 0);
  assert.deepEqual(commandLines(printed), [], printed.join("\n"));
});
