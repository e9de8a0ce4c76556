import assert from "node:assert/strict";
import { join } from "node:path";
import { outOverlap } from "../../../runner/api/out_overlap.ts";

Deno.test("outOverlap() refuses an out folder that is the baseline folder, lies in it or holds it", async () => {
  const dir = await Deno.makeTempDir({ prefix: "tailgate-overlap-" });
  try {
    const baselines = join(dir, ".tailgate", "baselines");
    await Deno.mkdir(baselines, { recursive: true });
    const same = await outOverlap(baselines, baselines);
    assert.equal(
      same,
      `--out ${baselines} is the baseline folder ${baselines}: results and histories never ` +
        "share a folder (a result named like a history would replace it, and clearing the " +
        "results would delete the histories); give --out another folder, e.g. tailgate-out, " +
        "or --baseline another folder",
    );
    assert.match(
      (await outOverlap(join(baselines, "x"), baselines))!,
      / lies in the baseline folder /,
    );
    assert.match((await outOverlap(dir, baselines))!, / holds the baseline folder /);
    assert.match((await outOverlap(`${baselines}/./`, baselines))!, / is the baseline folder /);
    assert.equal(await outOverlap(join(dir, "out"), baselines), undefined);
    assert.equal(await outOverlap(join(dir, ".tailgate", "baselines-2"), baselines), undefined);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("outOverlap() sees through a link and a folder not made yet", async () => {
  const dir = await Deno.makeTempDir({ prefix: "tailgate-overlap-" });
  try {
    const baselines = join(dir, "baselines");
    await Deno.mkdir(baselines);
    await Deno.symlink(baselines, join(dir, "link"));
    assert.match((await outOverlap(join(dir, "link"), baselines))!, / is the baseline folder /);
    assert.match(
      (await outOverlap(join(dir, "link", "new", "deeper"), baselines))!,
      / lies in the baseline folder /,
    );
    // Neither made yet: compared as they will be.
    assert.match(
      (await outOverlap(join(dir, "a", "b"), join(dir, "a")))!,
      / lies in the baseline folder /,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
