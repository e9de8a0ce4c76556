import assert from "node:assert/strict";
import { join } from "node:path";
import { commitInPlace, restoreFromBranch, saveToBranch } from "../../../ci/action/baseline_git.ts";
import { gitIn, gitOrigin } from "../../_helpers/git_fixtures.ts";

const DIR = ".tailgate/baselines";
const BRANCH = "tailgate-baselines";

async function writeHistory(work: string, files: Record<string, string>): Promise<void> {
  await Deno.mkdir(join(work, DIR), { recursive: true });
  for (const [name, text] of Object.entries(files)) {
    await Deno.writeTextFile(join(work, DIR, name), text);
  }
}

Deno.test("the first save creates the baseline branch; a later job restores it", async () => {
  await using repo = await gitOrigin();
  const first = await repo.clone("first");
  assert.deepEqual(await restoreFromBranch({ cwd: first }, BRANCH, DIR), { files: [] });
  await writeHistory(first, { "shop.json": '{"runs":1}\n' });
  const saved = await saveToBranch({ cwd: first }, BRANCH, DIR, undefined, "tailgate: baselines");
  assert.deepEqual(saved.changed, ["shop.json"]);
  assert.equal(await gitIn(repo.origin, ["rev-parse", BRANCH]), saved.commit);
  assert.equal(await gitIn(repo.origin, ["show", `${BRANCH}:shop.json`]), '{"runs":1}');
  // The job's own branch, index and files are untouched.
  assert.equal(await gitIn(first, ["status", "--porcelain", "--untracked-files=no"]), "");
  assert.equal(await gitIn(first, ["rev-parse", "--abbrev-ref", "HEAD"]), "main");

  const second = await repo.clone("second");
  const restored = await restoreFromBranch({ cwd: second }, BRANCH, DIR);
  assert.deepEqual(restored, { commit: saved.commit, files: ["shop.json"] });
  assert.equal(await Deno.readTextFile(join(second, DIR, "shop.json")), '{"runs":1}\n');
});

Deno.test("saveToBranch() keeps another job's concurrent update of another plan and skips no-ops", async () => {
  await using repo = await gitOrigin();
  const seed = await repo.clone("seed");
  await writeHistory(seed, { "a.json": "a1\n", "b.json": "b1\n" });
  await saveToBranch({ cwd: seed }, BRANCH, DIR, undefined, "seed");

  // Two jobs restore the same history; one updates a.json, the other b.json, then both save.
  const jobA = await repo.clone("job-a");
  const jobB = await repo.clone("job-b");
  const fromA = await restoreFromBranch({ cwd: jobA }, BRANCH, DIR);
  const fromB = await restoreFromBranch({ cwd: jobB }, BRANCH, DIR);
  await writeHistory(jobA, { "a.json": "a2\n" });
  await writeHistory(jobB, { "b.json": "b2\n" });
  assert.deepEqual((await saveToBranch({ cwd: jobA }, BRANCH, DIR, fromA.commit, "a")).changed, [
    "a.json",
  ]);
  assert.deepEqual((await saveToBranch({ cwd: jobB }, BRANCH, DIR, fromB.commit, "b")).changed, [
    "b.json",
  ]);
  assert.equal(await gitIn(repo.origin, ["show", `${BRANCH}:a.json`]), "a2");
  assert.equal(await gitIn(repo.origin, ["show", `${BRANCH}:b.json`]), "b2");
  assert.equal(await gitIn(repo.origin, ["rev-list", "--count", BRANCH]), "3");

  const again = await saveToBranch({ cwd: jobB }, BRANCH, DIR, fromB.commit, "again");
  assert.equal(again.commit, undefined);
  assert.equal(await gitIn(repo.origin, ["rev-list", "--count", BRANCH]), "3");
});

Deno.test("commitInPlace() commits the changed history to the checked-out branch and pushes it", async () => {
  await using repo = await gitOrigin();
  const work = await repo.clone("work");
  assert.equal(await commitInPlace({ cwd: work }, "main", DIR, "nothing yet"), false);
  await writeHistory(work, { "shop.json": "{}\n" });
  assert.equal(
    await commitInPlace({ cwd: work }, "main", DIR, "tailgate: baselines [skip ci]"),
    true,
  );
  assert.equal(await gitIn(repo.origin, ["show", `main:${DIR}/shop.json`]), "{}");
  assert.equal(
    await gitIn(repo.origin, ["log", "-1", "--format=%an <%ae> %s", "main"]),
    "github-actions[bot] <41898282+github-actions[bot]@users.noreply.github.com> " +
      "tailgate: baselines [skip ci]",
  );
});

Deno.test("saveToBranch() never replaces a history the job did not restore (a failed restore)", async () => {
  await using repo = await gitOrigin();
  const seed = await repo.clone("seed");
  await writeHistory(seed, { "shop.json": "10 runs\n" });
  await saveToBranch({ cwd: seed }, BRANCH, DIR, undefined, "seed");

  // The restore failed (no restored commit): the run started a fresh one-run history of shop.
  const job = await repo.clone("job");
  await writeHistory(job, { "shop.json": "1 run\n", "cart.json": "1 run\n" });
  const saved = await saveToBranch({ cwd: job }, BRANCH, DIR, undefined, "job");
  assert.deepEqual([saved.changed, saved.kept], [["cart.json"], ["shop.json"]]);
  assert.equal(await gitIn(repo.origin, ["show", `${BRANCH}:shop.json`]), "10 runs");
  assert.equal(await gitIn(repo.origin, ["show", `${BRANCH}:cart.json`]), "1 run");
});

Deno.test("the baseline branch is found by its full name, not a branch ending in it", async () => {
  await using repo = await gitOrigin();
  await gitIn(repo.origin, ["branch", `feature/${BRANCH}`, "main"]);
  const work = await repo.clone("work");
  assert.deepEqual(await restoreFromBranch({ cwd: work }, BRANCH, DIR), { files: [] });
  await writeHistory(work, { "shop.json": "{}\n" });
  const saved = await saveToBranch({ cwd: work }, BRANCH, DIR, undefined, "first");
  assert.equal(await gitIn(repo.origin, ["rev-parse", BRANCH]), saved.commit);
});

Deno.test("restoreFromBranch() and saveToBranch() take an absolute baseline-dir as it is", async () => {
  await using repo = await gitOrigin();
  const push = await repo.clone("push");
  const outside = join(repo.root, "runner-temp", "baselines");
  await Deno.mkdir(outside, { recursive: true });
  await Deno.writeTextFile(join(outside, "shop.json"), "{}\n");
  assert.deepEqual((await saveToBranch({ cwd: push }, BRANCH, outside, undefined, "s")).changed, [
    "shop.json",
  ]);
  const pr = await repo.clone("pr");
  const into = join(repo.root, "pr-temp", "baselines");
  assert.deepEqual((await restoreFromBranch({ cwd: pr }, BRANCH, into)).files, ["shop.json"]);
  assert.equal(await Deno.readTextFile(join(into, "shop.json")), "{}\n");
});
