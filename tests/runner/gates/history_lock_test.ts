import assert from "node:assert/strict";
import { join } from "node:path";
import { STALE_LOCK_MS, withHistoryLock } from "../../../runner/gates/history_lock.ts";

Deno.test("withHistoryLock() runs one holder at a time and removes the lock, also on errors", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = join(dir, "shop.json");
    const order: string[] = [];
    const hold = (name: string) =>
      withHistoryLock(path, async () => {
        order.push(`${name} in`);
        await new Promise((r) => setTimeout(r, 20));
        order.push(`${name} out`);
      });
    await Promise.all([hold("a"), hold("b")]);
    assert.deepEqual(order.slice(0, 2).map((s) => s.split(" ")[1]), ["in", "out"], order.join());
    await assert.rejects(withHistoryLock(path, () => Promise.reject(new Error("boom"))), /boom/);
    assert.deepEqual([...Deno.readDirSync(dir)], [], "no lock left");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("withHistoryLock() takes over a lock left by a holder that died", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = join(dir, "shop.json");
    await Deno.writeTextFile(`${path}.lock`, "12345\n");
    const old = new Date(Date.now() - STALE_LOCK_MS - 1_000);
    await Deno.utime(`${path}.lock`, old, old);
    assert.equal(await withHistoryLock(path, () => Promise.resolve("done")), "done");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
