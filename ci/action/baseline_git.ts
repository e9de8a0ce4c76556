/**
 * Baseline histories kept in git: on a branch of their own (`baseline: branch`, the files at the
 * branch's root, the history pages in its `docs/`), or committed beside the code
 * (`baseline: committed` with `baseline-commit`).
 * The branch commit is built with git plumbing (hash-object, mktree, commit-tree), so the job's
 * checkout, index and HEAD stay as they are.
 *
 * @module
 */
import { globSync } from "node:fs";
import { join, resolve } from "node:path";
import { type HistoryPage, PAGES_FOLDER, pagesEntries } from "./history/mod.ts";

/** Who the commits are by: the Actions bot, as GitHub shows it. */
export const BOT_IDENTITY = {
  GIT_AUTHOR_NAME: "github-actions[bot]",
  GIT_AUTHOR_EMAIL: "41898282+github-actions[bot]@users.noreply.github.com",
  GIT_COMMITTER_NAME: "github-actions[bot]",
  GIT_COMMITTER_EMAIL: "41898282+github-actions[bot]@users.noreply.github.com",
};

/** Where the repository is and which remote to use. */
export interface GitPlace {
  /** A folder inside the repository (the job's workspace). */
  cwd: string;
  /** Default `origin`. */
  remote?: string;
}

/** Runs git; throws with its standard error when it fails, unless `allowFail`. */
async function git(
  place: GitPlace,
  args: string[],
  options: { stdin?: string; allowFail?: boolean } = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  const child = new Deno.Command("git", {
    args,
    cwd: place.cwd,
    env: BOT_IDENTITY,
    stdin: options.stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  if (options.stdin !== undefined) {
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(options.stdin));
    await writer.close();
  }
  const out = await child.output();
  const dec = new TextDecoder();
  const result = { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
  if (result.code !== 0 && !options.allowFail) {
    throw new Error(`git ${args.join(" ")} failed (${result.code}): ${result.stderr.trim()}`);
  }
  return result;
}

/** The remote branch's newest commit, fetched; undefined when the branch does not exist yet. */
async function fetchBranch(place: GitPlace, branch: string): Promise<string | undefined> {
  const remote = place.remote ?? "origin";
  // The full ref: a bare name would also match `refs/heads/<anything>/<branch>`.
  const found = await git(place, ["ls-remote", "--exit-code", remote, `refs/heads/${branch}`], {
    allowFail: true,
  });
  if (found.code === 2) return undefined;
  if (found.code !== 0) throw new Error(`git ls-remote ${remote} failed: ${found.stderr.trim()}`);
  await git(place, ["fetch", "--quiet", "--no-tags", "--depth=1", remote, `refs/heads/${branch}`]);
  return (await git(place, ["rev-parse", "FETCH_HEAD"])).stdout.trim();
}

/** A tree's entries (a commit's top level, or `<commit>:docs`): name to "mode type id". */
async function treeEntries(
  place: GitPlace,
  tree: string | undefined,
): Promise<Map<string, string>> {
  const entries = new Map<string, string>();
  if (tree === undefined) return entries;
  const listing = await git(place, ["ls-tree", tree], { allowFail: true });
  for (const line of listing.stdout.split("\n")) {
    const m = /^(\d+ \w+ [0-9a-f]+)\t(.+)$/.exec(line);
    if (m) entries.set(m[2], m[1]);
  }
  return entries;
}

/** A commit's top-level files: name to blob id. */
async function topFiles(place: GitPlace, commit: string | undefined): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const [name, entry] of await treeEntries(place, commit)) {
    const m = /^100644 blob ([0-9a-f]+)$/.exec(entry);
    if (m) files.set(name, m[1]);
  }
  return files;
}

/**
 * Copies the branch's `*.json` history files into `dir`; returns the commit they came from
 * (undefined, and nothing copied, when the branch does not exist yet).
 */
export async function restoreFromBranch(
  place: GitPlace,
  branch: string,
  dir: string,
): Promise<{ commit?: string; files: string[] }> {
  const commit = await fetchBranch(place, branch);
  const files = [...(await topFiles(place, commit))].filter(([name]) => name.endsWith(".json"));
  await Deno.mkdir(resolve(place.cwd, dir), { recursive: true });
  for (const [name, blob] of files) {
    const text = (await git(place, ["cat-file", "blob", blob])).stdout;
    await Deno.writeTextFile(resolve(place.cwd, dir, name), text);
  }
  return { ...(commit ? { commit } : {}), files: files.map(([name]) => name).sort() };
}

/** What a save did. */
export interface SaveOutcome {
  /** The commit pushed; undefined when nothing changed. */
  commit?: string;
  /** The history files this job changed. */
  changed: string[];
  /**
   * Changed files left as the branch has them: histories this job did not restore (its restore
   * failed, or another job created them meanwhile), which its own files lack the runs of.
   */
  kept: string[];
  /** The history pages published with them (`docs/shop.html`, `docs/shop.json`). */
  pages: string[];
}

/** Writes a tree of `entries` (name to "mode type id") and returns its id. */
async function makeTree(place: GitPlace, entries: ReadonlyMap<string, string>): Promise<string> {
  const listing = [...entries].map(([name, entry]) => `${entry}\t${name}\n`).join("");
  return (await git(place, ["mktree"], { stdin: listing })).stdout.trim();
}

/**
 * Commits the `*.json` files of `dir` that differ from the restored commit onto the branch's
 * newest commit (so another job's concurrent update of another plan is kept) and pushes; a push
 * refused because the branch moved is retried, up to `attempts` times (default 3). A file the
 * branch has but the restored commit had not is never replaced: this job's history was built
 * without its runs. With `pages`, the changed histories' pages go into the branch's `docs/`
 * (ci/action/history/history_pages.ts), the other pages there kept; whatever else the branch
 * holds is kept as it is.
 */
export async function saveToBranch(
  place: GitPlace,
  branch: string,
  dir: string,
  restoredCommit: string | undefined,
  message: string,
  options: { attempts?: number; pages?: readonly HistoryPage[] } = {},
): Promise<SaveOutcome> {
  const attempts = options.attempts ?? 3;
  const restored = await topFiles(place, restoredCommit);
  const changed = new Map<string, string>();
  for (const name of globSync("*.json", { cwd: resolve(place.cwd, dir) }).sort()) {
    const blob = (await git(place, ["hash-object", "-w", join(dir, name)])).stdout.trim();
    if (restored.get(name) !== blob) changed.set(name, blob);
  }
  if (changed.size === 0) return { changed: [], kept: [], pages: [] };
  const hashFile = async (path: string) =>
    (await git(place, ["hash-object", "-w", path])).stdout.trim();
  const writeBlob = async (text: string) =>
    (await git(place, ["hash-object", "-w", "--stdin"], { stdin: text })).stdout.trim();
  const pageBlobs = new Map<string, [string, string][]>();
  for (const p of options.pages ?? []) {
    pageBlobs.set(`${p.name}.json`, [
      [`${p.name}.html`, await hashFile(p.html)],
      [`${p.name}.json`, await hashFile(p.json)],
    ]);
  }
  for (let attempt = 1;; attempt++) {
    const head = await fetchBranch(place, branch);
    const entries = await treeEntries(place, head);
    const before = [...entries].sort().join();
    const kept = [...changed.keys()].filter((name) => entries.has(name) && !restored.has(name));
    const written = [...changed.keys()].filter((name) => !kept.includes(name));
    for (const name of written) entries.set(name, `100644 blob ${changed.get(name)!}`);
    // Only the pages of histories this job wrote: a kept one's page lacks the branch's runs.
    const pageFiles = new Map(written.flatMap((name) => pageBlobs.get(name) ?? []));
    if (pageFiles.size > 0) {
      const folder = entries.has(PAGES_FOLDER) ? `${head}:${PAGES_FOLDER}` : undefined;
      const docs = await pagesEntries(await treeEntries(place, folder), pageFiles, writeBlob);
      entries.set(PAGES_FOLDER, `040000 tree ${await makeTree(place, docs)}`);
    }
    const pages = [...pageFiles.keys()].map((name) => `${PAGES_FOLDER}/${name}`);
    if (head !== undefined && [...entries].sort().join() === before) {
      return { changed: written, kept, pages };
    }
    const tree = await makeTree(place, entries);
    const parent = head ? ["-p", head] : [];
    const commit = (await git(place, ["commit-tree", tree, ...parent, "-m", message])).stdout
      .trim();
    const pushed = await git(place, [
      "push",
      "--quiet",
      place.remote ?? "origin",
      `${commit}:refs/heads/${branch}`,
    ], { allowFail: true });
    if (pushed.code === 0) return { commit, changed: written, kept, pages };
    if (attempt >= attempts) {
      throw new Error(`could not push ${branch}: ${pushed.stderr.trim()}`);
    }
  }
}

/**
 * `baseline: committed` with `baseline-commit: true`: commits the changed history files in `dir`
 * to the checked-out branch `branch` and pushes. Returns false when nothing changed.
 */
export async function commitInPlace(
  place: GitPlace,
  branch: string,
  dir: string,
  message: string,
): Promise<boolean> {
  const exists = await Deno.stat(resolve(place.cwd, dir)).then(() => true, () => false);
  if (!exists) return false;
  await git(place, ["add", "--", dir]);
  const staged = await git(place, ["diff", "--cached", "--quiet", "--", dir], { allowFail: true });
  if (staged.code === 0) return false;
  await git(place, ["commit", "--quiet", "-m", message, "--", dir]);
  await git(place, ["push", "--quiet", place.remote ?? "origin", `HEAD:refs/heads/${branch}`]);
  return true;
}
