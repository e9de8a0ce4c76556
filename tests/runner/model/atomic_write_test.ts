import assert from "node:assert/strict";
import { join } from "node:path";
import { newFileInPlace, writeAll, writeFileAtomic } from "../../../runner/model/atomic_write.ts";

/** A fresh temporary folder, removed when the test is done. */
async function tempDir(): Promise<AsyncDisposable & { path: string }> {
  const path = await Deno.makeTempDir({ prefix: "tailgate-atomic-" });
  return { path, [Symbol.asyncDispose]: () => Deno.remove(path, { recursive: true }) };
}

async function names(dir: string): Promise<string[]> {
  const out: string[] = [];
  for await (const e of Deno.readDir(dir)) out.push(e.name);
  return out.sort();
}

Deno.test("writeFileAtomic() replaces the file and leaves no temporary file", async () => {
  await using dir = await tempDir();
  const file = join(dir.path, "result.json");
  await writeFileAtomic(file, "first, and longer than the second");
  assert.equal(await Deno.readTextFile(file), "first, and longer than the second");
  await writeFileAtomic(file, "second");
  assert.equal(await Deno.readTextFile(file), "second");
  await writeFileAtomic(file, new Uint8Array([104, 105]));
  assert.equal(await Deno.readTextFile(file), "hi");
  assert.deepEqual(await names(dir.path), ["result.json"]);
});

Deno.test("writeFileAtomic() creates the folders the file goes in", async () => {
  await using dir = await tempDir();
  const file = join(dir.path, "out", "run-1", "result.json");
  await writeFileAtomic(file, "{}");
  assert.equal(await Deno.readTextFile(file), "{}");
  assert.deepEqual(await names(join(dir.path, "out", "run-1")), ["result.json"]);
});

Deno.test("a failed write leaves the old content intact and no temporary file", async () => {
  await using dir = await tempDir();
  // The target path is a non-empty folder: the final rename fails.
  const target = join(dir.path, "result.json");
  await Deno.mkdir(target);
  await Deno.writeTextFile(join(target, "keep.txt"), "old");
  await assert.rejects(writeFileAtomic(target, "new content"));
  assert.equal(await Deno.readTextFile(join(target, "keep.txt")), "old");
  assert.deepEqual(await names(dir.path), ["result.json"]);
  assert.deepEqual(await names(target), ["keep.txt"]);
});

Deno.test("a link at the name is replaced, never written through", async () => {
  await using dir = await tempDir();
  const outside = join(dir.path, "outside.txt");
  await Deno.writeTextFile(outside, "not tailgate's");
  const file = join(dir.path, "out", "result.json");
  await Deno.mkdir(join(dir.path, "out"));
  await Deno.symlink(outside, file);
  await writeFileAtomic(file, "{}");
  assert.equal(await Deno.readTextFile(outside), "not tailgate's");
  assert.ok((await Deno.lstat(file)).isFile);
  assert.equal(await Deno.readTextFile(file), "{}");
  const log = join(dir.path, "out", "service.log");
  await Deno.symlink(outside, log);
  using opened = await newFileInPlace(log);
  await writeAll(opened, new TextEncoder().encode("up\n"));
  assert.equal(await Deno.readTextFile(outside), "not tailgate's");
  assert.equal(await Deno.readTextFile(log), "up\n");
});

Deno.test("writeFileAtomic() takes a function that writes the content a part at a time", async () => {
  await using dir = await tempDir();
  const file = join(dir.path, "log");
  await writeFileAtomic(file, async (f) => {
    for (const part of ["a", "b", "c"]) await writeAll(f, new TextEncoder().encode(part));
  });
  assert.equal(await Deno.readTextFile(file), "abc");
  assert.deepEqual(await names(dir.path), ["log"]);
});
