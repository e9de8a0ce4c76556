import assert from "node:assert/strict";
import { join } from "node:path";
import {
  checkOutDir,
  claimOutDir,
  OUT_MARKER,
  outPlaceProblem,
  ownOutDirProblem,
} from "../../../runner/api/out_dir.ts";

Deno.test("checkOutDir() accepts a folder or one that can be made, creating nothing", async () => {
  const dir = await Deno.makeTempDir();
  try {
    assert.equal(await checkOutDir(dir), undefined);
    const nested = join(dir, "a", "b");
    assert.equal(await checkOutDir(nested), undefined);
    await assert.rejects(Deno.stat(join(dir, "a")), Deno.errors.NotFound);
    assert.deepEqual([...Deno.readDirSync(dir)], [], "the write probe is removed");
    const file = join(dir, "f");
    await Deno.writeTextFile(file, "x");
    assert.match((await checkOutDir(file))!, /f is not a folder/);
    assert.match((await checkOutDir(join(file, "sub")))!, /f is not a folder/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("claimOutDir() makes and marks a folder, clears only a marked one, and refuses someone else's", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const root = join(dir, "out");
    const out = join(root, "shop");
    assert.equal(await claimOutDir(root, { clear: false }), undefined);
    assert.equal(await claimOutDir(out, { clear: true }), undefined);
    assert.ok((await Deno.lstat(join(out, OUT_MARKER))).isFile);
    // What an earlier run wrote is cleared; a link inside is removed, never what it points to.
    const kept = join(dir, "kept.md");
    await Deno.writeTextFile(kept, "keep me\n");
    await Deno.writeTextFile(join(out, "result.json"), "{}");
    await Deno.mkdir(join(out, "rounds"));
    await Deno.symlink(kept, join(out, "link.md"));
    assert.equal(await claimOutDir(out, { clear: true }), undefined);
    assert.deepEqual([...Deno.readDirSync(out)].map((e) => e.name), [OUT_MARKER]);
    assert.equal(await Deno.readTextFile(kept), "keep me\n");
    // Without clear, a marked folder keeps what it holds (the folder of every plan's folder).
    await Deno.writeTextFile(join(root, "summary.md"), "x");
    assert.equal(await claimOutDir(root, { clear: false }), undefined);
    assert.equal(await Deno.readTextFile(join(root, "summary.md")), "x");
    assert.ok((await Deno.lstat(join(out, OUT_MARKER))).isFile);
    // An empty folder becomes tailgate's; one holding other files, a file or a link does not.
    const empty = join(dir, "empty");
    await Deno.mkdir(empty);
    assert.equal(await claimOutDir(empty, { clear: true }), undefined);
    const docs = join(dir, "docs");
    await Deno.mkdir(docs);
    await Deno.writeTextFile(join(docs, "important.md"), "keep me\n");
    assert.match((await claimOutDir(docs, { clear: true }))!, /holds files tailgate did not write/);
    assert.deepEqual([...Deno.readDirSync(docs)].map((e) => e.name), ["important.md"]);
    assert.match((await ownOutDirProblem(kept))!, /is not a folder/);
    await Deno.symlink(docs, join(dir, "docs-link"));
    assert.match((await claimOutDir(join(dir, "docs-link"), { clear: true }))!, /is a link/);
    assert.equal(await Deno.readTextFile(join(docs, "important.md")), "keep me\n");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("outPlaceProblem() refuses the workspace, a folder around it and its .git, links followed", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const ws = join(dir, "ws");
    await Deno.mkdir(join(ws, ".git"), { recursive: true });
    await Deno.symlink(ws, join(dir, "ws-link"));
    for (const out of [ws, `${ws}/`, dir, "/", join(dir, "ws-link"), join(ws, "a", "..")]) {
      assert.match((await outPlaceProblem(out, ws))!, /is the workspace .* or contains it/, out);
    }
    for (const out of [join(ws, ".git"), join(ws, ".git", "out")]) {
      assert.match((await outPlaceProblem(out, ws))!, /lies in the repository's \.git/, out);
    }
    for (const out of [join(ws, "tailgate-out"), join(ws, ".gitx"), join(dir, "elsewhere")]) {
      assert.equal(await outPlaceProblem(out, ws), undefined, out);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
