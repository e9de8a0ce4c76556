import assert from "node:assert/strict";
import { join } from "node:path";
import { bumpMain } from "../../../ci/release/bump_version.ts";
import { prepareMain, releaseOf } from "../../../ci/release/prepare_release.ts";

const ROOT = new URL("../../../", import.meta.url).pathname;
/** What `npm pack` of the checkout reads (package.json's `files`, and itself). */
const PACKAGE_SOURCES = [
  "bin",
  "cli.ts",
  "mod.ts",
  "deno.json",
  "deno.runtime.lock",
  "runner",
  "reporters",
  "plans",
  "docs",
  "ci",
  "README.md",
  "CHANGELOG.md",
  "LICENSE",
  "NOTICE",
  "package.json",
];

const run = async (cmd: string, args: string[], cwd: string) => {
  const out = await new Deno.Command(cmd, { args, cwd, stdout: "piped", stderr: "piped" }).output();
  return { code: out.code, stdout: new TextDecoder().decode(out.stdout) };
};

Deno.test("a bumped checkout's tag makes the tarball, its checksum and the notes, with the repository named", async () => {
  const work = await Deno.makeTempDir({ prefix: "tailgate-release-" });
  try {
    const checkout = join(work, "checkout");
    await Deno.mkdir(checkout);
    for (const f of PACKAGE_SOURCES) await run("cp", ["-r", join(ROOT, f), checkout], ROOT);
    const { version } = JSON.parse(await Deno.readTextFile(join(checkout, "deno.json")));
    const lines: string[] = [];
    assert.equal(
      await bumpMain(checkout, [version], new Date("2026-05-06"), (l) => lines.push(l)),
      0,
    );
    const packageJson = await Deno.readTextFile(join(checkout, "package.json"));
    const outputs = join(work, "github-output");
    const out = join(work, "dist");
    const env = { GITHUB_REF_NAME: `v${version}`, GITHUB_REPOSITORY: "example-org/tailgate" };
    assert.equal(
      await prepareMain(checkout, ["--check", "--out", out], env, (l) => lines.push(l)),
      0,
    );
    assert.match(lines.at(-1)!, /the tag, deno\.json, package\.json and CHANGELOG\.md agree/);
    assert.equal(await Deno.stat(out).catch(() => null), null, "--check makes no file");
    const code = await prepareMain(
      checkout,
      ["--out", out],
      { ...env, GITHUB_OUTPUT: outputs },
      (l) => lines.push(l),
    );
    assert.equal(code, 0, lines.join("\n"));
    const tarball = `tailgate-${version}.tgz`;
    assert.deepEqual([...Deno.readDirSync(out)].map((e) => e.name).sort(), [
      "SHA256SUMS",
      "release-notes.md",
      tarball,
    ]);
    const check = await run("sha256sum", ["--check", "SHA256SUMS"], out);
    assert.equal(check.code, 0);
    assert.equal(check.stdout, `${tarball}: OK\n`);
    const packed = await run("tar", ["-xzOf", tarball, "package/package.json"], out);
    const shipped = JSON.parse(packed.stdout);
    assert.equal(shipped.repository.url, "git+https://github.com/example-org/tailgate.git");
    assert.equal(shipped.version, version);
    // The checkout's package.json is as it was: only the tarball names the repository.
    assert.equal(await Deno.readTextFile(join(checkout, "package.json")), packageJson);
    const notes = await Deno.readTextFile(join(out, "release-notes.md"));
    assert.match(notes, /^The first version\.\n\n### Added\n/);
    assert.match(notes, new RegExp(`npm install -g tailgate@${version.replaceAll(".", "\\.")}`));
    const written = await Deno.readTextFile(outputs);
    assert.match(written, new RegExp(`^tarball<<\\S+\\n${join(out, tarball)}\\n`, "m"));
  } finally {
    await Deno.remove(work, { recursive: true });
  }
});

Deno.test("a tag that is not the checkout's version, or an undated section, is refused with the fix", async () => {
  const changelog = "## [0.2.0] - Unreleased\n\n- B.\n";
  const refused = releaseOf({
    tag: "v0.3.0",
    denoVersion: "0.2.0",
    packageVersion: "0.1.0",
    changelog,
  });
  assert.equal(refused.ok, false);
  const messages = refused.ok ? [] : refused.problems.map((p) => `${p.message}; ${p.hint}`);
  assert.equal(messages.length, 3, messages.join("\n"));
  assert.match(
    messages[0],
    /deno\.json's version is 0\.2\.0, the tag's 0\.3\.0; run `deno task bump 0\.3\.0`/,
  );
  assert.match(messages[1], /package\.json's version is 0\.1\.0/);
  assert.match(messages[2], /no section `## \[0\.3\.0\]`/);
  const undated = releaseOf({
    tag: "v0.2.0",
    denoVersion: "0.2.0",
    packageVersion: "0.2.0",
    changelog,
  });
  assert.match(undated.ok ? "" : undated.problems[0].message, /0\.2\.0 is marked Unreleased/);
  const lines: string[] = [];
  const code = await prepareMain(
    ROOT,
    ["--tag", "main", "--out", "/nonexistent"],
    {},
    (l) => lines.push(l),
  );
  assert.equal(code, 2);
  assert.match(lines[0], /^release: the tag `main` is not vX\.Y\.Z/);
});
