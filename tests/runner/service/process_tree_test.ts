import assert from "node:assert/strict";
import { join } from "node:path";
import {
  descendantsOf,
  endProcessTree,
  liveServiceProcesses,
  type ProcessEntry,
  readProcesses,
} from "../../../runner/service/process_tree.ts";
import { alive } from "../../_helpers/service_commands.ts";

const p = (pid: number, ppid: number, pgrp = pid, state = "S"): ProcessEntry => ({
  pid,
  ppid,
  pgrp,
  state,
});

Deno.test("descendantsOf() follows every branch below the root, and nothing above or beside it", () => {
  const table = [p(1, 0), p(5, 1), p(10, 5), p(11, 10), p(30, 11, 30, "Z"), p(12, 10), p(20, 1)];
  assert.deepEqual(descendantsOf(table, 10).map((e) => e.pid), [11, 12, 30]);
  assert.deepEqual(descendantsOf(table, 20), []);
  assert.deepEqual(descendantsOf(table, 99), []);
  // A table read while processes come and go may hold a loop: it ends.
  assert.deepEqual(descendantsOf([p(2, 3), p(3, 2)], 2).map((e) => e.pid), [3]);
});

Deno.test("readProcesses() reads state, parent and group, whatever the command's name holds", async () => {
  const root = await Deno.makeTempDir({ prefix: "tailgate-proc-" });
  try {
    const stat = (pid: number, text: string) =>
      Deno.mkdir(join(root, String(pid))).then(() =>
        Deno.writeTextFile(join(root, String(pid), "stat"), text)
      );
    await stat(7, "7 (a (b) c) S 1 7 7 0 -1\n");
    await stat(8, "8 (zombie) Z 7 7 7 0 -1\n");
    await Deno.mkdir(join(root, "self"));
    assert.deepEqual(readProcesses(root)?.sort((a, b) => a.pid - b.pid), [
      p(7, 1, 7, "S"),
      p(8, 7, 7, "Z"),
    ]);
    assert.equal(readProcesses(join(root, "none")), undefined);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("endProcessTree() ends a process that left the group and one that ignores SIGTERM", async () => {
  // The root's group: sh and a sleep that ignores SIGTERM; below it, out of the group, a sleep
  // in a session of its own.
  const child = new Deno.Command("setsid", {
    args: ["sh", "-c", 'setsid sleep 30 & (trap "" TERM; exec sleep 30) & wait'],
    stdin: "null",
    stdout: "null",
    stderr: "null",
  }).spawn();
  let seen: number[] = [];
  try {
    for (let i = 0; i < 200 && seen.length < 3; i++) {
      await new Promise((r) => setTimeout(r, 10));
      seen = [child.pid, ...liveServiceProcesses(child.pid, child.pid)];
    }
    assert.equal(seen.length, 3, "sh and both sleeps");
    const started = performance.now();
    await endProcessTree(child.pid, child.pid, 300);
    assert.ok(performance.now() - started >= 250, "the SIGTERM-deaf one waited out the grace");
    assert.deepEqual(seen.filter(alive), []);
    await child.status;
  } finally {
    for (const pid of seen.filter(alive)) Deno.kill(pid, "SIGKILL");
  }
});
