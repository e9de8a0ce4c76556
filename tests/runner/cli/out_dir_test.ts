import assert from "node:assert/strict";
import { join } from "node:path";
import { checkOutDir } from "../../../runner/cli/out_dir.ts";

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
