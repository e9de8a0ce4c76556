import assert from "node:assert/strict";
import { endProcessGroup, liveGroupMembers } from "../../../runner/service/mod.ts";
import { liveMembers } from "../../_helpers/service_commands.ts";

Deno.test("endProcessGroup() ends every process of a group and reads exited ones as gone", async () => {
  // A leader and a child, both killed by SIGTERM; the child, orphaned, may stay a zombie where
  // init does not reap: it counts as gone.
  const child = new Deno.Command("setsid", {
    args: ["sh", "-c", "sleep 30 & exec sleep 30"],
    stdin: "null",
    stdout: "null",
    stderr: "null",
  }).spawn();
  try {
    for (let i = 0; i < 200 && liveGroupMembers(child.pid).length < 2; i++) {
      await new Promise((r) => setTimeout(r, 10));
    }
    assert.deepEqual(liveGroupMembers(child.pid).sort(), liveMembers(child.pid).sort());
    assert.equal(liveGroupMembers(child.pid).length, 2);
    const started = performance.now();
    await endProcessGroup(child.pid, 5_000);
    assert.ok(performance.now() - started < 2_000, "gone on SIGTERM, long before the grace");
    assert.deepEqual(liveGroupMembers(child.pid), []);
    assert.equal((await child.status).signal, "SIGTERM");
  } finally {
    if (liveMembers(child.pid).length) Deno.kill(-child.pid, "SIGKILL");
  }
});
