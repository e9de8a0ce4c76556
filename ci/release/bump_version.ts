/**
 * `deno task bump X.Y.Z`: the one command that changes tailgate's version. deno.json holds it
 * (the code reads it there); this writes it into package.json, dates CHANGELOG.md's section, and
 * moves the release tag the docs and the CI examples pin (`your-org/tailgate@vX.Y.Z`,
 * `TAILGATE_REF`, `--branch=`). Then commit, tag `vX.Y.Z` and push the tag: the release
 * workflow (.github/workflows/release.yml) does the rest.
 *
 * @module
 */
import { join } from "node:path";
import { err, ok, problem, problemText, type Result } from "../../runner/model/mod.ts";
import { releasedChangelog } from "./changelog.ts";

/** A version as tags and the registries take it: `1.2.3`, or `1.2.3-rc.1`. */
export const VERSION_PATTERN: RegExp = /^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/;

/** The files that name the release tag, besides deno.json, package.json and CHANGELOG.md. */
export const TAGGED_FILES: readonly string[] = ["README.md", "docs/ci.md"];
/** The folder whose every file may name the tag (the CI examples). */
export const TAGGED_FOLDER = "ci/examples";

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * `text` with the tag `v<from>` written `v<to>` wherever it stands alone (not inside a longer
 * version such as `v0.1.0.1` or `v10.1.0`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { retagged } from "./bump_version.ts";
 * assert.equal(
 *   retagged("uses: o/tailgate@v0.1.0 # pin\n--branch=v0.1.0.\nv10.1.0 v0.1.00", "0.1.0", "0.2.0"),
 *   "uses: o/tailgate@v0.2.0 # pin\n--branch=v0.2.0.\nv10.1.0 v0.1.00",
 * );
 * ```
 */
export function retagged(text: string, from: string, to: string): string {
  return text.replace(new RegExp(`(?<![\\w.])v${escape(from)}(?![\\w-]|\\.\\d)`, "g"), `v${to}`);
}

/**
 * A JSON file's text with its top-level `"version"` replaced, the rest of the text as it was.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { withVersion } from "./bump_version.ts";
 * assert.equal(withVersion('{\n  "name": "t",\n  "version": "0.1.0"\n}\n', "0.2.0"), '{\n  "name": "t",\n  "version": "0.2.0"\n}\n');
 * ```
 */
export function withVersion(json: string, to: string): string {
  return json.replace(/^( {2}"version": )"[^"]*"/m, `$1"${to}"`);
}

/**
 * Every file the bump changes, by repository path, from the files as they are (`files` holds
 * deno.json, package.json, CHANGELOG.md and the tagged files).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { bumpedFiles } from "./bump_version.ts";
 * const files = new Map([
 *   ["deno.json", '{\n  "version": "0.1.0"\n}\n'],
 *   ["package.json", '{\n  "version": "0.1.0"\n}\n'],
 *   ["CHANGELOG.md", "# Changelog\n\n## [Unreleased]\n\n- A.\n"],
 *   ["README.md", "uses: o/tailgate@v0.1.0\n"],
 * ]);
 * const bumped = bumpedFiles(files, "0.2.0", "2026-03-04");
 * assert.ok(bumped.ok);
 * assert.equal(bumped.value.get("README.md"), "uses: o/tailgate@v0.2.0\n");
 * assert.match(bumped.value.get("CHANGELOG.md")!, /## \[0\.2\.0\] - 2026-03-04/);
 * assert.equal(bumpedFiles(files, "0.2", "2026-03-04").ok, false);
 * ```
 */
export function bumpedFiles(
  files: ReadonlyMap<string, string>,
  to: string,
  date: string,
): Result<Map<string, string>> {
  if (!VERSION_PATTERN.test(to)) {
    return err(problem(`\`${to}\` is not a version`, "write MAJOR.MINOR.PATCH, e.g. 0.2.0"));
  }
  const from = JSON.parse(files.get("deno.json") ?? "{}").version;
  if (typeof from !== "string") return err(problem("deno.json has no version"));
  const changelog = releasedChangelog(files.get("CHANGELOG.md") ?? "", to, date);
  if (!changelog.ok) return changelog;
  const out = new Map<string, string>();
  for (const [path, text] of files) {
    const next = path === "deno.json" || path === "package.json"
      ? withVersion(text, to)
      : path === "CHANGELOG.md"
      ? changelog.value
      : retagged(text, from, to);
    if (next !== text) out.set(path, next);
  }
  return ok(out);
}

/** The files the bump reads, by repository path, from the checkout at `root`. */
export async function versionedFiles(root: string): Promise<Map<string, string>> {
  const paths = ["deno.json", "package.json", "CHANGELOG.md", ...TAGGED_FILES];
  for await (const e of Deno.readDir(join(root, TAGGED_FOLDER))) {
    if (e.isFile) paths.push(`${TAGGED_FOLDER}/${e.name}`);
  }
  const files = new Map<string, string>();
  for (const path of paths.sort()) files.set(path, await Deno.readTextFile(join(root, path)));
  return files;
}

/** Bumps the checkout at `root` to `args[0]`; returns the exit code (2 for bad input). */
export async function bumpMain(
  root: string,
  args: readonly string[],
  today: Date,
  print: (line: string) => void,
): Promise<number> {
  if (args.length !== 1) {
    print("usage: deno task bump X.Y.Z (the new version; X.Y.Z again dates a first release)");
    return 2;
  }
  const to = args[0].replace(/^v/, "");
  const bumped = bumpedFiles(await versionedFiles(root), to, today.toISOString().slice(0, 10));
  if (!bumped.ok) {
    for (const p of bumped.problems) print(`bump: ${problemText(p)}`);
    return 2;
  }
  for (const [path, text] of bumped.value) await Deno.writeTextFile(join(root, path), text);
  print(`bumped to ${to}: ${[...bumped.value.keys()].join(", ")}`);
  print(`next: git commit -am "release ${to}" && git tag v${to} && git push origin v${to}`);
  return 0;
}

if (import.meta.main) {
  const root = new URL("../../", import.meta.url).pathname;
  Deno.exit(await bumpMain(root, Deno.args, new Date(), console.log));
}
