import assert from "node:assert/strict";
import { join } from "node:path";
import {
  bumpedFiles,
  bumpMain,
  TAGGED_FOLDER,
  versionedFiles,
} from "../../../ci/release/bump_version.ts";

const ROOT = new URL("../../../", import.meta.url).pathname;

/** A copy of the files the bump reads, in a temporary checkout. */
async function copyOfCheckout(): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "tailgate-bump-" });
  for (const [path, text] of await versionedFiles(ROOT)) {
    await Deno.mkdir(join(dir, path, ".."), { recursive: true });
    await Deno.writeTextFile(join(dir, path), text);
  }
  return dir;
}

Deno.test("bump X.Y.Z writes the version and the tag everywhere, and the release's changelog section", async () => {
  const dir = await copyOfCheckout();
  try {
    const from = JSON.parse(await Deno.readTextFile(join(dir, "deno.json"))).version;
    const lines: string[] = [];
    // The first release keeps the version and dates its section; the next one moves everything.
    assert.equal(
      await bumpMain(dir, [from], new Date("2026-05-06T12:00:00Z"), (l) => lines.push(l)),
      0,
    );
    const changelog = join(dir, "CHANGELOG.md");
    const dated = await Deno.readTextFile(changelog);
    assert.ok(dated.includes(`## [${from}] - 2026-05-06`), lines.join("\n"));
    await Deno.writeTextFile(
      changelog,
      dated.replace("## [Unreleased]\n", "## [Unreleased]\n\n- B.\n"),
    );
    assert.equal(
      await bumpMain(dir, ["v9.8.7"], new Date("2026-06-07T12:00:00Z"), (l) => lines.push(l)),
      0,
    );
    const files = await versionedFiles(dir);
    assert.equal(JSON.parse(files.get("deno.json")!).version, "9.8.7");
    assert.equal(JSON.parse(files.get("package.json")!).version, "9.8.7");
    assert.match(files.get("CHANGELOG.md")!, /^## \[9\.8\.7\] - 2026-06-07\n\n- B\.$/m);
    let pins = 0;
    for (const [path, text] of files) {
      if (path === "CHANGELOG.md") continue;
      assert.ok(!text.includes(`v${from}`), `${path} still names v${from}`);
      pins += text.match(/tailgate@v9\.8\.7|TAILGATE_REF: v9\.8\.7|--branch=v9\.8\.7/g)?.length ??
        0;
    }
    assert.ok(pins >= 8, `${pins} pins moved`);
    assert.match(lines.at(-1)!, /git tag v9\.8\.7/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("every file of the repository that names the release tag is one the bump rewrites", async () => {
  const { version } = JSON.parse(await Deno.readTextFile(join(ROOT, "deno.json")));
  const listed = await versionedFiles(ROOT);
  const git = await new Deno.Command("git", { args: ["grep", "-l", `v${version}`], cwd: ROOT })
    .output();
  const naming = new TextDecoder().decode(git.stdout).split("\n").filter((p) =>
    // A Go module's go.mod and go.sum name other projects' versions, never tailgate's tag.
    p && p !== "CHANGELOG.md" && !p.endsWith(".ts") && !/(^|\/)go\.(mod|sum)$/.test(p)
  );
  assert.ok(naming.length > 0);
  for (const path of naming) assert.ok(listed.has(path), `${path} names v${version}`);
  assert.ok([...listed.keys()].some((p) => p.startsWith(`${TAGGED_FOLDER}/`)));
});

Deno.test("a bump to something not a version, or with nothing to release, changes nothing", async () => {
  const files = await versionedFiles(ROOT);
  const bad = bumpedFiles(files, "0.2", "2026-01-01");
  assert.equal(bad.ok, false);
  assert.match(bad.ok ? "" : bad.problems[0].message, /not a version/);
  // Before the first release, a new version has no [Unreleased] section to take.
  const early = bumpedFiles(files, "0.2.0", "2026-01-01");
  assert.equal(early.ok, false);
  const lines: string[] = [];
  assert.equal(await bumpMain(ROOT, [], new Date(), (l) => lines.push(l)), 2);
  assert.match(lines[0], /usage: deno task bump X\.Y\.Z/);
});
