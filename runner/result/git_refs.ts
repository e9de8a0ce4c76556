/**
 * Which commit and branch a run measured: the flag, else the CI system's variables, else git in
 * the plan's folder, else none. The order is pure ({@linkcode resolveGitRefs}); asking git is the
 * thin edge ({@linkcode readGitRefs}).
 *
 * @module
 */
import { err, ok, problem, type Result } from "../model/mod.ts";

/** The commit and branch of a run, each when known. */
export interface GitRefs {
  /** The commit (7 to 40 lowercase hex digits). */
  commit?: string;
  /** The branch, never git's detached "HEAD". */
  branch?: string;
}

/** What git says in the plan's folder: `rev-parse HEAD` and `rev-parse --abbrev-ref HEAD`. */
export interface GitAnswers {
  head?: string;
  branch?: string;
}

/** `--commit` and `--branch`, as given. */
export interface GitRefFlags {
  commit?: string;
  branch?: string;
}

const SHA = /^[0-9a-fA-F]{7,40}$/;

/**
 * A `--commit` value: a hex SHA of 7 to 40 digits (lowercased), or what is wrong with it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseCommit } from "./git_refs.ts";
 * assert.deepEqual(parseCommit("ABC1234"), { ok: true, value: "abc1234" });
 * assert.equal(parseCommit("main").ok, false);
 * ```
 */
export function parseCommit(text: string): Result<string> {
  if (SHA.test(text)) return ok(text.toLowerCase());
  return err(problem(
    `\`${text}\` is not a commit SHA`,
    "give 7 to 40 hex digits, e.g. --commit $(git rev-parse HEAD) (a branch or tag name is not " +
      "a commit)",
  ));
}

/**
 * A `--branch` value: a name without spaces or control characters, at most 255 characters.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseBranch } from "./git_refs.ts";
 * assert.deepEqual(parseBranch("feature/x"), { ok: true, value: "feature/x" });
 * assert.equal(parseBranch("two words").ok, false);
 * ```
 */
export function parseBranch(text: string): Result<string> {
  // deno-lint-ignore no-control-regex
  if (text.length > 0 && text.length <= 255 && !/[\s\x00-\x1f\x7f]/.test(text)) return ok(text);
  return err(problem(
    `\`${text}\` is not a branch name`,
    "give the branch as git names it, e.g. --branch main (no spaces, at most 255 characters)",
  ));
}

/**
 * The commit and branch of a run, pure: the flag; else `GITHUB_SHA`, `CI_COMMIT_SHA` (a branch:
 * `GITHUB_HEAD_REF` on a pull request, `GITHUB_REF_NAME`, `CI_COMMIT_REF_NAME`); else git's
 * answers in the plan's folder; else none. A variable that is empty, or not a SHA, is skipped;
 * git's detached "HEAD" is no branch.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resolveGitRefs } from "./git_refs.ts";
 * const env = (n: string) => ({ GITHUB_SHA: "a".repeat(40), GITHUB_REF_NAME: "main" } as Record<string, string>)[n];
 * assert.deepEqual(resolveGitRefs({}, env, { head: "b".repeat(40), branch: "HEAD" }), { commit: "a".repeat(40), branch: "main" });
 * assert.deepEqual(resolveGitRefs({ commit: "c0ffee1" }, () => undefined, {}), { commit: "c0ffee1" });
 * ```
 */
export function resolveGitRefs(
  flags: GitRefFlags,
  env: (name: string) => string | undefined,
  git: GitAnswers,
): GitRefs {
  const sha = (v: string | undefined) =>
    v !== undefined && SHA.test(v) ? v.toLowerCase() : undefined;
  const name = (v: string | undefined) => v !== undefined && parseBranch(v).ok ? v : undefined;
  const commit = sha(flags.commit) ?? sha(env("GITHUB_SHA")) ?? sha(env("CI_COMMIT_SHA")) ??
    sha(git.head);
  const branch = name(flags.branch) ?? name(env("GITHUB_HEAD_REF")) ??
    name(env("GITHUB_REF_NAME")) ?? name(env("CI_COMMIT_REF_NAME")) ??
    (git.branch === "HEAD" ? undefined : name(git.branch));
  return { ...(commit ? { commit } : {}), ...(branch ? { branch } : {}) };
}

/**
 * The run's commit and branch ({@linkcode resolveGitRefs}), asking git in `dir` (the plan's
 * folder) only when the flags and the environment leave one unknown. Never throws: no git, or no
 * repository, is none.
 */
export async function readGitRefs(
  dir: string,
  flags: GitRefFlags = {},
  env: (name: string) => string | undefined = (n) => Deno.env.get(n),
): Promise<GitRefs> {
  const known = resolveGitRefs(flags, env, {});
  if (known.commit !== undefined && known.branch !== undefined) return known;
  const [head, branch] = await Promise.all([
    known.commit === undefined ? askGit(dir, ["rev-parse", "HEAD"]) : undefined,
    known.branch === undefined ? askGit(dir, ["rev-parse", "--abbrev-ref", "HEAD"]) : undefined,
  ]);
  return resolveGitRefs(flags, env, {
    ...(head ? { head } : {}),
    ...(branch ? { branch } : {}),
  });
}

async function askGit(cwd: string, args: string[]): Promise<string | undefined> {
  try {
    const out = await new Deno.Command("git", { args, cwd, stdout: "piped", stderr: "null" })
      .output();
    return out.success ? new TextDecoder().decode(out.stdout).trim() || undefined : undefined;
  } catch {
    return undefined;
  }
}
