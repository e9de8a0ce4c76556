import assert from "node:assert/strict";
import { join } from "node:path";
import { readRegularFile } from "../../../runner/model/regular_file.ts";
import { makeFifo, settlesWithin } from "../../_helpers/special_files.ts";

Deno.test("readRegularFile() reads a regular file, also through a link, up to the limit", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = join(dir, "a.json");
    await Deno.writeTextFile(path, "12345");
    await Deno.symlink(path, join(dir, "link.json"));
    for (const p of [path, join(dir, "link.json")]) {
      const read = await readRegularFile(p, 5);
      assert.ok(read.ok);
      assert.equal(new TextDecoder().decode(read.value), "12345");
    }
    const over = await readRegularFile(path, 4);
    assert.deepEqual(over, {
      ok: false,
      problems: [{
        message: `${path} is 5 bytes; at most 4 are read`,
        file: path,
        kind: "too_large",
        reason: "is 5 bytes; at most 4 are read",
        sizeBytes: 5,
      }],
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("readRegularFile() refuses a missing path, a folder, a FIFO and a device without reading", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const fifo = join(dir, "fifo");
    await makeFifo(fifo);
    await Deno.symlink("/dev/zero", join(dir, "zero"));
    await Deno.writeTextFile(join(dir, "file"), "x");
    const cases: Array<[string, string]> = [
      [join(dir, "absent"), "missing"],
      [join(dir, "file", "below"), "missing"],
      [dir, "directory"],
      [join(dir, "zero"), "special"],
      [fifo, "special"],
    ];
    for (const [path, problem] of cases) {
      const read = await settlesWithin(readRegularFile(path, 1024), 2_000, fifo);
      assert.ok(!read.ok && read.problems[0].kind === problem, `${path}: ${JSON.stringify(read)}`);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
