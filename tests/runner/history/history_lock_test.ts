import assert from "node:assert/strict";
import { join } from "node:path";
import {
  currentLockOwner,
  STALE_LOCK_MS,
  withHistoryLock,
} from "../../../runner/history/history_lock.ts";

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

/** A PID that was alive a moment ago and is no longer: a process that ran and was waited for. */
async function deadPid(): Promise<number> {
  const child = new Deno.Command("true").spawn();
  await child.status;
  return child.pid;
}

/** Runs `work` and says how long it took, in milliseconds. */
async function timed<T>(work: () => Promise<T>): Promise<[T, number]> {
  const start = performance.now();
  const value = await work();
  return [value, performance.now() - start];
}

Deno.test("withHistoryLock() takes over an empty lock at once: a lock whose owner could not even be written", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = join(dir, "shop.json");
    // What a full disk left behind: the file created, its owner never written. Fresh, not old.
    await Deno.writeTextFile(`${path}.lock`, "");
    const [value, ms] = await timed(() => withHistoryLock(path, () => Promise.resolve("done")));
    assert.equal(value, "done");
    assert.ok(ms < 2_000, `waited ${ms} ms for a lock nobody holds`);
    await assert.rejects(Deno.stat(`${path}.lock`), Deno.errors.NotFound);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("withHistoryLock() takes over at once a fresh lock whose owner is no longer alive, or whose PID was reused", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = join(dir, "shop.json");
    const here = currentLockOwner();
    const dead = { ...here, pid: await deadPid() };
    // This process's PID, but another process's start: the owner died and its PID came back.
    const reused = { ...here, startTicks: (here.startTicks ?? 0) + 1 };
    for (const owner of [dead, reused]) {
      await Deno.writeTextFile(`${path}.lock`, JSON.stringify(owner) + "\n");
      const [value, ms] = await timed(() => withHistoryLock(path, () => Promise.resolve("done")));
      assert.equal(value, "done");
      assert.ok(ms < 2_000, `waited ${ms} ms for ${JSON.stringify(owner)}`);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("withHistoryLock() waits for a live holder, and a signal stops the wait at once, saying so", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = join(dir, "shop.json");
    let release = () => {};
    const released = new Promise<void>((resolve) => release = resolve);
    let held = () => {};
    const holding = new Promise<void>((resolve) => held = resolve);
    const holder = withHistoryLock(path, () => {
      held();
      return released;
    });
    await holding;
    const owner = JSON.parse(await Deno.readTextFile(`${path}.lock`));
    assert.deepEqual(owner, currentLockOwner(), "the lock names its live owner");
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const [error, ms] = await timed(() =>
      withHistoryLock(path, () => Promise.resolve(), { signal: controller.signal }).then(
        () => undefined,
        (e) => e as Error,
      )
    );
    assert.ok(ms < 1_500, `the signal took ${ms} ms to stop the wait`);
    assert.match(
      error?.message ?? "no error",
      /stopped waiting for the history lock .*shop\.json\.lock/,
    );
    release();
    await holder;
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("withHistoryLock() leaves a lock from another machine alone until it is old", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = join(dir, "shop.json");
    // A folder shared by two machines: the other's PID means nothing here.
    const other = { ...currentLockOwner(), host: "another-machine", pid: await deadPid() };
    await Deno.writeTextFile(`${path}.lock`, JSON.stringify(other) + "\n");
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    await assert.rejects(
      withHistoryLock(path, () => Promise.resolve(), { signal: controller.signal }),
      /stopped waiting/,
    );
    const old = new Date(Date.now() - STALE_LOCK_MS - 1_000);
    await Deno.utime(`${path}.lock`, old, old);
    assert.equal(await withHistoryLock(path, () => Promise.resolve("done")), "done");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
