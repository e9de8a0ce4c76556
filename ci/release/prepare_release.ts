/**
 * What the release workflow (.github/workflows/release.yml) publishes, made in a folder: the npm
 * tarball (`npm pack`, with package.json's `repository` set to the repository the workflow runs
 * in, which npm's provenance checks), `SHA256SUMS`, and `release-notes.md` (the version's
 * CHANGELOG.md section). It first checks that the tag is deno.json's and package.json's version
 * and that CHANGELOG.md dates it (`deno task bump` did). Publishing is the workflow's: this only
 * makes files, so it runs anywhere as a dry run:
 *
 * `deno run --allow-all ci/release/prepare_release.ts --tag v0.1.0 --repository OWNER/tailgate --out dist`
 *
 * In GitHub Actions the tag and the repository default to `GITHUB_REF_NAME` and
 * `GITHUB_REPOSITORY`, and the files' paths are written as step outputs. `--check` only checks.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { join, resolve } from "node:path";
import {
  err,
  ok,
  type Problem,
  problem,
  problemText,
  type Result,
} from "../../runner/model/mod.ts";
import { writeOutputs } from "../workflow_commands.ts";
import { changelogSection } from "./changelog.ts";
import { VERSION_PATTERN } from "./bump_version.ts";

/** What a release is made from, as read from the checkout. */
export interface ReleaseSources {
  /** The tag pushed, `vX.Y.Z`. */
  tag: string;
  denoVersion: string;
  packageVersion: string;
  changelog: string;
}

/**
 * The version a tag releases, with its CHANGELOG.md section: or every reason it cannot be
 * released.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { releaseOf } from "./prepare_release.ts";
 * const changelog = "## [0.2.0] - 2026-01-02\n\n- B.\n";
 * const sources = { tag: "v0.2.0", denoVersion: "0.2.0", packageVersion: "0.2.0", changelog };
 * assert.deepEqual(releaseOf(sources), { ok: true, value: { version: "0.2.0", notes: "- B." } });
 * assert.equal(releaseOf({ ...sources, tag: "v0.3.0" }).ok, false);
 * ```
 */
export function releaseOf(s: ReleaseSources): Result<{ version: string; notes: string }> {
  const version = s.tag.replace(/^v/, "");
  const found: Problem[] = [];
  if (!s.tag.startsWith("v") || !VERSION_PATTERN.test(version)) {
    found.push(problem(`the tag \`${s.tag}\` is not vX.Y.Z`, "tag the release v0.2.0, say"));
  }
  if (s.denoVersion !== version) {
    found.push(problem(
      `deno.json's version is ${s.denoVersion}, the tag's ${version}`,
      `run \`deno task bump ${version}\`, commit, and tag that commit`,
    ));
  }
  if (s.packageVersion !== s.denoVersion) {
    found.push(problem(
      `package.json's version is ${s.packageVersion}, deno.json's ${s.denoVersion}`,
      "deno task bump writes both",
    ));
  }
  const section = changelogSection(s.changelog, version);
  if (!section.ok) found.push(...section.problems);
  else if (section.value.date === undefined) {
    found.push(problem(
      `CHANGELOG.md's ${version} is marked Unreleased`,
      `run \`deno task bump ${version}\`: it dates the section`,
    ));
  }
  if (found.length > 0) return err(found);
  return ok({ version, notes: section.ok ? section.value.body : "" });
}

/**
 * `SHA256SUMS` as `sha256sum --check` reads it: one `<hex>  <name>` line a file.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checksumLines } from "./prepare_release.ts";
 * const sums = await checksumLines([{ name: "a.tgz", bytes: new TextEncoder().encode("abc") }]);
 * assert.equal(sums, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad  a.tgz\n");
 * ```
 */
export async function checksumLines(
  files: readonly { name: string; bytes: Uint8Array<ArrayBuffer> }[],
): Promise<string> {
  let text = "";
  for (const { name, bytes } of files) {
    const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
    text += `${Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("")}  ${name}\n`;
  }
  return text;
}

/** package.json with the fields that name where the package comes from (provenance reads them). */
export function withRepository(packageJson: string, repository: string): string {
  const pkg = JSON.parse(packageJson);
  const url = `https://github.com/${repository}`;
  pkg.repository = { type: "git", url: `git+${url}.git` };
  pkg.homepage = `${url}#readme`;
  pkg.bugs = { url: `${url}/issues` };
  return `${JSON.stringify(pkg, null, 2)}\n`;
}

/** Makes the release files of the checkout at `root`; returns the exit code (2: not releasable). */
export async function prepareMain(
  root: string,
  args: readonly string[],
  env: Record<string, string | undefined>,
  print: (line: string) => void,
): Promise<number> {
  const { values } = parseArgs({
    args: [...args],
    options: {
      tag: { type: "string" },
      repository: { type: "string" },
      out: { type: "string" },
      check: { type: "boolean" },
    },
  });
  const tag = values.tag ?? env.GITHUB_REF_NAME ?? "";
  const repository = values.repository ?? env.GITHUB_REPOSITORY;
  const out = resolve(root, values.out ?? "dist");
  const packagePath = join(root, "package.json");
  const packageJson = await Deno.readTextFile(packagePath);
  const release = releaseOf({
    tag,
    denoVersion: JSON.parse(await Deno.readTextFile(join(root, "deno.json"))).version,
    packageVersion: JSON.parse(packageJson).version,
    changelog: await Deno.readTextFile(join(root, "CHANGELOG.md")),
  });
  if (repository !== undefined && !/^[\w.-]+\/[\w.-]+$/.test(repository)) {
    print(`release: \`${repository}\` is not OWNER/NAME`);
    return 2;
  }
  if (!release.ok) {
    for (const p of release.problems) print(`release: ${problemText(p)}`);
    return 2;
  }
  if (values.check) {
    print(
      `release ${release.value.version}: the tag, deno.json, package.json and CHANGELOG.md agree`,
    );
    return 0;
  }
  await Deno.mkdir(out, { recursive: true });
  let packed;
  try {
    if (repository) await Deno.writeTextFile(packagePath, withRepository(packageJson, repository));
    packed = await new Deno.Command("npm", {
      args: ["pack", "--json", "--pack-destination", out],
      cwd: root,
      stdout: "piped",
      stderr: "inherit",
    }).output();
  } finally {
    await Deno.writeTextFile(packagePath, packageJson);
  }
  if (!packed.success) return 1;
  const [{ filename }] = JSON.parse(new TextDecoder().decode(packed.stdout));
  const tarball = join(out, filename);
  const checksums = join(out, "SHA256SUMS");
  await Deno.writeTextFile(
    checksums,
    await checksumLines([{ name: filename, bytes: await Deno.readFile(tarball) }]),
  );
  const notes = join(out, "release-notes.md");
  await Deno.writeTextFile(
    notes,
    `${release.value.notes}\n\n---\n\n` +
      `\`npm install -g tailgate@${release.value.version}\` (Node.js and npm; the npm package ` +
      `brings its Deno), or the tarball below: \`npm install -g ./${filename}\`. ` +
      "`sha256sum --check SHA256SUMS` checks it.\n",
  );
  await writeOutputs(
    { version: release.value.version, tarball, checksums, notes },
    env.GITHUB_OUTPUT,
  );
  print(`release ${release.value.version}: ${tarball}, ${checksums}, ${notes}`);
  return 0;
}

if (import.meta.main) {
  const root = new URL("../../", import.meta.url).pathname;
  Deno.exit(await prepareMain(root, Deno.args, Deno.env.toObject(), console.log));
}
