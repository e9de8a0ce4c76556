import assert from "node:assert/strict";
import { join } from "node:path";
import {
  parseBranch,
  parseCommit,
  readGitRefs,
  resolveGitRefs,
} from "../../../runner/result/git_refs.ts";
import { collectEnvironment } from "../../../runner/result/environment.ts";
import { gitIn, gitOrigin } from "../../_helpers/git_fixtures.ts";

const FLAG = "f".repeat(40);
const GITHUB = "1".repeat(40);
const GITLAB = "2".repeat(40);

/** An environment of these variables only. */
function envOf(vars: Record<string, string>): (name: string) => string | undefined {
  return (name) => vars[name];
}

/** A clone on branch `main` with one commit, and a `plans/` folder in it. */
async function tempRepo(): Promise<AsyncDisposable & { path: string; head: string }> {
  const origin = await gitOrigin();
  const path = await origin.clone("work");
  await Deno.mkdir(join(path, "plans"));
  const head = await gitIn(path, ["rev-parse", "HEAD"]);
  return { path, head, [Symbol.asyncDispose]: () => origin[Symbol.asyncDispose]() };
}

Deno.test("the commit comes from the flag, then GITHUB_SHA, then CI_COMMIT_SHA, then git", () => {
  const all = envOf({ GITHUB_SHA: GITHUB, CI_COMMIT_SHA: GITLAB });
  const head = { head: "3".repeat(40) };
  assert.equal(resolveGitRefs({ commit: FLAG }, all, head).commit, FLAG);
  assert.equal(resolveGitRefs({}, all, head).commit, GITHUB);
  assert.equal(resolveGitRefs({}, envOf({ CI_COMMIT_SHA: GITLAB }), head).commit, GITLAB);
  assert.equal(resolveGitRefs({}, envOf({}), head).commit, head.head);
  assert.equal(resolveGitRefs({}, envOf({}), {}).commit, undefined);
  // An empty or malformed variable is skipped, not stored.
  assert.equal(
    resolveGitRefs({}, envOf({ GITHUB_SHA: "", CI_COMMIT_SHA: "x" }), head).commit,
    head.head,
  );
});

Deno.test("the branch prefers a pull request's head, and git's detached HEAD is no branch", () => {
  const pr = envOf({ GITHUB_HEAD_REF: "feature", GITHUB_REF_NAME: "12/merge" });
  assert.equal(resolveGitRefs({}, pr, {}).branch, "feature");
  assert.equal(resolveGitRefs({ branch: "mine" }, pr, {}).branch, "mine");
  const push = envOf({ GITHUB_HEAD_REF: "", GITHUB_REF_NAME: "main" });
  assert.equal(resolveGitRefs({}, push, { branch: "x" }).branch, "main");
  assert.equal(resolveGitRefs({}, envOf({ CI_COMMIT_REF_NAME: "dev" }), {}).branch, "dev");
  assert.equal(resolveGitRefs({}, envOf({}), { branch: "main" }).branch, "main");
  assert.deepEqual(resolveGitRefs({}, envOf({}), { branch: "HEAD" }), {});
});

Deno.test("readGitRefs() asks git in the plan's folder, not the current one", async () => {
  await using repo = await tempRepo();
  const refs = await readGitRefs(join(repo.path, "plans"), {}, envOf({}));
  assert.deepEqual(refs, { commit: repo.head, branch: "main" });
  assert.match(repo.head, /^[0-9a-f]{40}$/);
  // The flag and the CI's variables win over git.
  const ci = envOf({ GITHUB_SHA: GITHUB, GITHUB_REF_NAME: "release" });
  assert.deepEqual(await readGitRefs(repo.path, {}, ci), { commit: GITHUB, branch: "release" });
  assert.deepEqual(await readGitRefs(repo.path, { commit: FLAG }, ci), {
    commit: FLAG,
    branch: "release",
  });
  // Detached at the commit: the commit, no branch.
  await gitIn(repo.path, ["checkout", "-q", "--detach"]);
  assert.deepEqual(await readGitRefs(repo.path, {}, envOf({})), { commit: repo.head });
});

Deno.test("collectEnvironment() stores the resolved commit and branch", async () => {
  await using repo = await tempRepo();
  const env = await collectEnvironment({ gitDir: join(repo.path, "plans"), env: envOf({}) });
  assert.equal(env.gitSha, repo.head);
  assert.equal(env.gitBranch, "main");
  const flagged = await collectEnvironment({
    gitDir: repo.path,
    env: envOf({}),
    commit: "abcdef1",
    branch: "release",
  });
  assert.equal(flagged.gitSha, "abcdef1");
  assert.equal(flagged.gitBranch, "release");
});

Deno.test("parseCommit() takes 7 to 40 hex digits and refuses the rest, saying how", () => {
  assert.deepEqual(parseCommit("ABCDEF1"), { ok: true, value: "abcdef1" });
  assert.deepEqual(parseCommit(FLAG), { ok: true, value: FLAG });
  for (const bad of ["abcdef", "a".repeat(41), "main", "v1.2.3", "abcdefg", " abcdef1", ""]) {
    const read = parseCommit(bad);
    assert.ok(!read.ok, bad);
    assert.match(read.problems[0].message, /is not a commit SHA/);
    assert.match(read.problems[0].hint ?? "", /7 to 40 hex digits/);
  }
});

Deno.test("parseBranch() refuses names git could not have", () => {
  assert.equal(parseBranch("feature/x-1").ok, true);
  for (const bad of ["", "a b", "a\nb", "x".repeat(256)]) assert.equal(parseBranch(bad).ok, false);
});
