import assert from "node:assert/strict";
import { freePort } from "../../_helpers/free_port.ts";
import { join } from "node:path";
import { startAbTarget } from "../../../runner/ab/ab_target.ts";
import { liveMembers, serveCommand, stubbornCommand } from "../../_helpers/service_commands.ts";
import { h2cServer } from "../../_helpers/http2_servers.ts";

async function answers(url: string): Promise<boolean> {
  try {
    const res = await fetch(url);
    await res.body?.cancel();
    return res.ok;
  } catch {
    return false;
  }
}

Deno.test("startAbTarget() starts a command, waits until it answers, and stops its process group", async () => {
  const dir = await Deno.makeTempDir();
  const port = freePort();
  const url = `http://127.0.0.1:${port}`;
  const logPath = join(dir, "base.log");
  const target = await startAbTarget({ url, start: serveCommand(port) }, { logPath });
  assert.equal(await answers(url), true);
  await target.stop();
  assert.equal(await answers(url), false, "stopped: nothing listens any more");
  assert.match(await Deno.readTextFile(logPath), /^up$/m, "its output is kept");
  await target.stop(); // a second stop is harmless
  await Deno.remove(dir, { recursive: true });
});

Deno.test("startAbTarget() refuses a port already taken, and reports a command that exits", async () => {
  const dir = await Deno.makeTempDir();
  const taken = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const takenUrl = `http://127.0.0.1:${(taken.addr as Deno.NetAddr).port}`;
  await assert.rejects(
    startAbTarget({ url: takenUrl, start: "sleep 5" }, { logPath: join(dir, "a.log") }),
    /already listens on 127\.0\.0\.1:\d+, before `sleep 5` started/,
  );
  taken.close();
  const port = freePort();
  await assert.rejects(
    startAbTarget(
      { url: `http://127.0.0.1:${port}`, start: "echo broken build >&2; exit 3" },
      { logPath: join(dir, "b.log") },
    ),
    /exited with code 3 before 127\.0\.0\.1:\d+ answered; its output: broken build/,
  );
  await assert.rejects(
    startAbTarget({ url: `http://127.0.0.1:${port}` }, { logPath: join(dir, "c.log") }),
    /^Error: ab target http:\/\/127\.0\.0\.1:\d+: http:\/\/127\.0\.0\.1:\d+ refused the connection/,
  );
  await Deno.remove(dir, { recursive: true });
});

Deno.test("ab stops a target command whose child ignores SIGTERM: its group is killed after 5 s", async () => {
  const dir = await Deno.makeTempDir();
  const port = freePort();
  const target = await startAbTarget(
    { url: `http://127.0.0.1:${port}`, start: stubbornCommand(port, false) },
    { logPath: join(dir, "stubborn.log") },
  );
  const pgid = target.pgid!;
  try {
    assert.ok(liveMembers(pgid).length >= 2, "the service and its child run in one group");
    const started = performance.now();
    const stopping = target.stop();
    const late = new Promise((r) => setTimeout(() => r("late"), 8_000));
    assert.equal(await Promise.race([stopping.then(() => "stopped"), late]), "stopped");
    const ms = performance.now() - started;
    assert.ok(ms < 5_000 + 1_500, `stop() took ${ms.toFixed(0)} ms, the grace is 5 s`);
    assert.deepEqual(liveMembers(pgid), [], "no process of the group survives");
    assert.match(await Deno.readTextFile(join(dir, "stubborn.log")), /^up$/m);
  } finally {
    // Whatever happened: nothing this test started outlives it.
    if (liveMembers(pgid).length) Deno.kill(-pgid, "SIGKILL");
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("startAbTarget() refuses a URL that speaks only HTTP/2, naming it before any round", async () => {
  await using server = await h2cServer();
  await assert.rejects(
    startAbTarget({ url: server.url }, { logPath: "unused.log" }),
    /^Error: ab target http:\/\/127\.0\.0\.1:\d+\/: http:\/\/127\.0\.0\.1:\d+ speaks only HTTP\/2/,
  );
  assert.equal(server.requests(), 0);
});

Deno.test("startAbTarget()'s stop says which process still answers on its address, for ab to print", async () => {
  const dir = await Deno.makeTempDir();
  const port = freePort();
  const ready = join(dir, "ready");
  // The command lets another process (this test's server) answer in its place: one ab did not start.
  const starting = startAbTarget(
    { url: `http://127.0.0.1:${port}`, start: `touch '${ready}'; exec sleep 30` },
    { logPath: join(dir, "base.log") },
  );
  for (let i = 0; i < 200 && !(await Deno.stat(ready).catch(() => undefined)); i++) {
    await new Promise((r) => setTimeout(r, 50));
  }
  const server = Deno.serve(
    { hostname: "127.0.0.1", port, onListen: () => {} },
    () => new Response("ok"),
  );
  try {
    const target = await starting;
    const found = await target.stop();
    assert.match(
      String(found?.stillAnswering),
      new RegExp(
        `127\\.0\\.0\\.1:${port} still answers after the service was stopped: PID ${Deno.pid}`,
      ),
    );
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
