/**
 * Git repositories for the CI baseline tests: a bare "origin" and clones of it, in a temporary
 * folder removed when disposed. Nothing leaves the machine.
 *
 * @module
 */
import { join } from "node:path";

const IDENTITY = {
  GIT_AUTHOR_NAME: "test",
  GIT_AUTHOR_EMAIL: "test@example.invalid",
  GIT_COMMITTER_NAME: "test",
  GIT_COMMITTER_EMAIL: "test@example.invalid",
};

/**
 * Runs git in `cwd` and returns its standard output; throws with its error output on failure.
 *
 * @example
 * ```ts
 * import { gitIn } from "./git_fixtures.ts";
 * const head = await gitIn("/tmp/repo", ["rev-parse", "HEAD"]);
 * ```
 */
export async function gitIn(cwd: string, args: string[]): Promise<string> {
  const out = await new Deno.Command("git", {
    args,
    cwd,
    env: IDENTITY,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const dec = new TextDecoder();
  if (out.code !== 0) throw new Error(`git ${args.join(" ")}: ${dec.decode(out.stderr)}`);
  return dec.decode(out.stdout).trim();
}

/** A bare origin with one commit on `main`, and a way to clone it. */
export interface GitOrigin extends AsyncDisposable {
  /** The temporary folder holding everything. */
  root: string;
  /** The bare repository. */
  origin: string;
  /** A fresh shallow clone of `main`, as actions/checkout makes (folder name `name`). */
  clone(name: string): Promise<string>;
}

/**
 * Creates the origin with `README.md` committed on `main`.
 *
 * @example
 * ```ts
 * import { gitOrigin } from "./git_fixtures.ts";
 * await using repo = await gitOrigin();
 * const work = await repo.clone("work");
 * ```
 */
export async function gitOrigin(): Promise<GitOrigin> {
  const root = await Deno.makeTempDir({ prefix: "tailgate-git-" });
  const origin = join(root, "origin.git");
  const seed = join(root, "origin-seed");
  await gitIn(root, ["init", "--quiet", "--bare", "--initial-branch=main", origin]);
  await gitIn(root, ["init", "--quiet", "--initial-branch=main", seed]);
  await Deno.writeTextFile(join(seed, "README.md"), "service\n");
  await gitIn(seed, ["add", "README.md"]);
  await gitIn(seed, ["commit", "--quiet", "-m", "first"]);
  await gitIn(seed, ["push", "--quiet", origin, "main"]);
  return {
    root,
    origin,
    async clone(name: string): Promise<string> {
      const dir = join(root, name);
      await gitIn(root, ["clone", "--quiet", "--depth=1", `file://${origin}`, dir]);
      return dir;
    },
    [Symbol.asyncDispose]: () => Deno.remove(root, { recursive: true }),
  };
}
