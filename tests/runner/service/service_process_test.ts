import assert from "node:assert/strict";
import { join } from "node:path";
import { killStartedServices, startService } from "../../../runner/service/mod.ts";
import { freePort } from "../../_helpers/free_port.ts";
import { liveMembers, serveCommand, stubbornCommand } from "../../_helpers/service_commands.ts";

/** Runs `test` in a temporary folder, removed after. */
async function inTempDir(test: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir();
  try {
    await test(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

for (const leaderIgnores of [false, true]) {
  const who = leaderIgnores ? "it and its child ignore" : "its child ignores";
  Deno.test(`stop() ends a service ${who} SIGTERM: SIGKILL to its group after the grace`, async () => {
    await inTempDir(async (dir) => {
      const port = freePort();
      const service = await startService(
        { command: stubbornCommand(port, leaderIgnores), url: `http://127.0.0.1:${port}` },
        { logPath: join(dir, "service.log"), stopGraceMs: 1_000 },
      );
      try {
        assert.ok(liveMembers(service.pgid).length >= 2, "the service and its child, one group");
        const started = performance.now();
        await service.stop();
        const ms = performance.now() - started;
        assert.ok(ms >= 900 && ms < 1_000 + 1_200, `stop() took ${ms.toFixed(0)} ms, grace 1 s`);
        assert.deepEqual(liveMembers(service.pgid), [], "no process of the group survives");
        await service.stop(); // a second stop is harmless
        assert.match(await Deno.readTextFile(join(dir, "service.log")), /^up$/m);
      } finally {
        if (liveMembers(service.pgid).length) Deno.kill(-service.pgid, "SIGKILL");
      }
    });
  });
}

Deno.test("stop() returns as soon as a service that honours SIGTERM has exited", async () => {
  await inTempDir(async (dir) => {
    const port = freePort();
    const url = `http://127.0.0.1:${port}`;
    const command = `echo to stderr >&2; ${serveCommand(port)}`;
    const service = await startService({ command, url }, { logPath: join(dir, "service.log") });
    const res = await fetch(url);
    assert.equal(await res.text(), "ok");
    const started = performance.now();
    await service.stop();
    assert.ok(performance.now() - started < 2_000, "well inside the 5 s grace");
    assert.deepEqual(liveMembers(service.pgid), []);
    const log = await Deno.readTextFile(join(dir, "service.log"));
    assert.match(log, /^to stderr$/m, "standard error goes to the log");
    assert.match(log, /^up$/m, "and standard output");
  });
});

Deno.test("a service that never answers is stopped with its group, its output in the error", async () => {
  await inTempDir(async (dir) => {
    const port = freePort();
    const url = `http://127.0.0.1:${port}`;
    // The group's id is printed first, so the test can look at the group afterwards.
    const command = 'echo "group $$"; (trap "" TERM; sleep 30) & exec sleep 30';
    const cases = [
      [() => ({ readyTimeoutMs: 500 }), /did not answer on 127\.0\.0\.1:\d+ within 0\.5 s/],
      [() => ({ signal: AbortSignal.timeout(500) }), /was stopped/],
    ] as const;
    for (const [options, why] of cases) {
      const error = await startService(
        { command, url },
        { logPath: join(dir, "service.log"), stopGraceMs: 500, ...options() },
      ).then(() => undefined, (e: Error) => e);
      assert.match(String(error?.message), why);
      const pgid = Number(/its output: group (\d+)/.exec(String(error?.message))?.[1]);
      assert.ok(pgid > 0, String(error?.message));
      assert.deepEqual(liveMembers(pgid), [], "what it started is ended");
    }
  });
});

Deno.test("a service with a readiness URL is ready only once that URL answers 2xx", async () => {
  await inTempDir(async (dir) => {
    const port = freePort();
    const readyUrl = `http://127.0.0.1:${freePort()}/health`; // nothing answers there
    const error = await startService(
      { command: serveCommand(port), url: `http://127.0.0.1:${port}`, readyUrl },
      { logPath: join(dir, "service.log"), readyTimeoutMs: 3_000, stopGraceMs: 500 },
    ).then(() => undefined, (e: Error) => e);
    assert.match(
      String(error?.message),
      /did not answer on http:\/\/127\.0\.0\.1:\d+\/health \(2xx\)/,
    );
    assert.match(String(error?.message), /its output: up/, "the port answered meanwhile");
    const service = await startService(
      {
        command: serveCommand(port),
        url: `http://127.0.0.1:${port}`,
        readyUrl: `http://127.0.0.1:${port}/health`,
      },
      { logPath: join(dir, "service.log") },
    );
    await service.stop();
    assert.equal((await service.exited).success, false, "ended by SIGTERM");
    assert.match(await service.logTail(), /up/);
  });
});

Deno.test("killStartedServices() kills at once every group started and not yet stopped", async () => {
  await inTempDir(async (dir) => {
    const port = freePort();
    const service = await startService(
      { command: stubbornCommand(port, true), url: `http://127.0.0.1:${port}` },
      { logPath: join(dir, "service.log") },
    );
    try {
      assert.deepEqual(killStartedServices(), [service.pgid]);
      for (let i = 0; i < 20 && liveMembers(service.pgid).length; i++) {
        await new Promise((r) => setTimeout(r, 50));
      }
      assert.deepEqual(liveMembers(service.pgid), [], "no SIGTERM grace: SIGKILL at once");
      assert.deepEqual(killStartedServices(), [], "each group once");
      await service.stop();
    } finally {
      if (liveMembers(service.pgid).length) Deno.kill(-service.pgid, "SIGKILL");
    }
  });
});
