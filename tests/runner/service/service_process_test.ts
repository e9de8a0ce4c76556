import assert from "node:assert/strict";
import { join } from "node:path";
import {
  findService,
  killStartedServices,
  ServiceStartError,
  startService,
} from "../../../runner/service/mod.ts";
import { freePort } from "../../_helpers/free_port.ts";
import {
  alive,
  answers,
  daemonCommand,
  liveMembers,
  serveCommand,
  setsidCommand,
  stubbornCommand,
} from "../../_helpers/service_commands.ts";

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

Deno.test("the log takes the place of a link at its name: the file linked to is left as it was", async () => {
  await inTempDir(async (dir) => {
    const outside = join(dir, "outside.txt");
    await Deno.writeTextFile(outside, "not tailgate's\n");
    const logPath = join(dir, "service.log");
    await Deno.symlink(outside, logPath);
    const port = freePort();
    const service = await startService(
      { command: serveCommand(port), url: `http://127.0.0.1:${port}` },
      { logPath },
    );
    await service.stop();
    assert.equal(await Deno.readTextFile(outside), "not tailgate's\n");
    assert.ok((await Deno.lstat(logPath)).isFile, "a file of its own, no longer the link");
    assert.match(await Deno.readTextFile(logPath), /^up$/m);
  });
});

Deno.test("the log keeps the output's last logMaxBytes and says how many bytes it cut", async () => {
  await inTempDir(async (dir) => {
    const port = freePort();
    const logPath = join(dir, "service.log");
    const maxBytes = 64 * 1024;
    // About 1.3 MB, then the server's "up" and its PID.
    const service = await startService(
      { command: `seq 1 200000; ${serveCommand(port)}`, url: `http://127.0.0.1:${port}` },
      { logPath, logMaxBytes: maxBytes },
    );
    const live = (await Deno.stat(logPath)).size;
    assert.ok(live <= maxBytes, `${live} bytes while the service runs`);
    const stopped = await service.stop();
    let full = "";
    for (let n = 1; n <= 200000; n++) full += `${n}\n`;
    const log = await Deno.readTextFile(logPath);
    full += `up\n${/pid \d+\n$/.exec(log)?.[0]}`;
    const header = log.slice(0, log.indexOf("\n") + 1);
    const cut = Number(/the first (\d+) bytes of the service's output were cut/.exec(header)?.[1]);
    assert.equal(cut, full.length - maxBytes, header);
    assert.equal(stopped.logCutBytes, cut);
    assert.equal(log.slice(header.length), full.slice(-maxBytes), "the tail, whole");
  });
});

for (
  const [kind, command] of [["under setsid", setsidCommand], [
    "that daemonizes",
    daemonCommand,
  ]] as const
) {
  Deno.test(`stop() ends a service ${kind}: nothing answers on its port, its server is gone`, async () => {
    await inTempDir(async (dir) => {
      const port = freePort();
      const url = new URL(`http://127.0.0.1:${port}`);
      const logPath = join(dir, "service.log");
      let holders: number[] = [];
      try {
        const service = await startService({ command: command(port), url: url.href }, { logPath });
        holders = findService({ url })?.pids ?? [];
        assert.ok(holders.length > 0, "a server holds the port");
        const stopped = await service.stop();
        assert.equal(await answers(port), false, "nothing answers on its port");
        assert.deepEqual(holders.filter(alive), [], "the server is gone");
        assert.equal(stopped.stillAnswering, undefined);
        assert.match(await Deno.readTextFile(logPath), /^up$/m, "its output in the log");
      } finally {
        holders = [...holders, ...(findService({ url })?.pids ?? [])];
        for (const pid of holders.filter(alive)) Deno.kill(pid, "SIGKILL");
      }
    });
  });
}

Deno.test("a command that exits 0 and leaves nothing running is not ready", async () => {
  await inTempDir(async (dir) => {
    const port = freePort();
    const error = await startService(
      { command: "echo done; exit 0", url: `http://127.0.0.1:${port}` },
      { logPath: join(dir, "service.log"), readyTimeoutMs: 10_000 },
    ).then(() => undefined, (e: Error) => e);
    assert.match(
      String(error?.message),
      /exited with code 0 and left no process running before 127\.0\.0\.1:\d+ answered; its output: done/,
    );
  });
});

Deno.test("stop() names the process that still answers on the service's port after it", async () => {
  await inTempDir(async (dir) => {
    const port = freePort();
    const ready = join(dir, "ready");
    // The command has another process (this test's) listen in its place, one tailgate did not start.
    const command = `touch '${ready}'; exec sleep 30`;
    const starting = startService(
      { command, url: `http://127.0.0.1:${port}` },
      { logPath: join(dir, "service.log"), stopGraceMs: 500 },
    );
    for (let i = 0; i < 200 && !(await Deno.stat(ready).catch(() => undefined)); i++) {
      await new Promise((r) => setTimeout(r, 50));
    }
    const listener = Deno.listen({ hostname: "127.0.0.1", port });
    try {
      const service = await starting;
      const stopped = await service.stop();
      assert.match(
        String(stopped.stillAnswering),
        new RegExp(
          `127\\.0\\.0\\.1:${port} still answers after the service was stopped: PID ${Deno.pid} \\(deno\\)`,
        ),
      );
    } finally {
      listener.close();
    }
  });
});

Deno.test("a log that cannot be written: the command is not run, the error says why", async () => {
  await inTempDir(async (dir) => {
    const file = join(dir, "file");
    await Deno.writeTextFile(file, "");
    const ran = join(dir, "ran");
    const port = freePort();
    const error = await startService(
      { command: `touch '${ran}'`, url: `http://127.0.0.1:${port}` },
      { logPath: join(file, "service.log") },
    ).then(() => undefined, (e: Error) => e);
    assert.match(
      String(error?.message),
      /`touch .*` could not be started: tailgate's service keeper: .*\/file'/,
    );
    assert.equal(await Deno.stat(ran).then(() => true, () => false), false, "nothing ran");
  });
});

Deno.test("a service runs in its cwd (its program found from there), with its env beside tailgate's", async () => {
  await inTempDir(async (dir) => {
    const port = freePort();
    const folder = join(dir, "api");
    await Deno.mkdir(folder);
    const script = join(folder, "serve.sh");
    await Deno.writeTextFile(
      script,
      `#!/bin/sh\necho "cwd $(pwd)"\necho "greeting $GREETING"\necho "home \${HOME:+kept}"\n${
        serveCommand(port)
      }\n`,
    );
    await Deno.chmod(script, 0o755);
    const service = await startService(
      {
        command: "./serve.sh",
        url: `http://127.0.0.1:${port}`,
        cwd: folder,
        env: { GREETING: "hi" },
      },
      { logPath: join(dir, "service.log"), readyTimeoutMs: 20_000 },
    );
    await service.stop();
    const log = await Deno.readTextFile(join(dir, "service.log"));
    assert.match(log, new RegExp(`^cwd ${await Deno.realPath(folder)}$`, "m"));
    assert.match(log, /^greeting hi$/m);
    assert.match(log, /^home kept$/m, "tailgate's own environment is kept");
    const missing = join(dir, "gone");
    const error = await startService(
      { command: "./serve.sh", url: `http://127.0.0.1:${port}`, cwd: missing },
      { logPath: join(dir, "service.log") },
    ).then(() => undefined, (e: Error) => e);
    assert.match(String(error?.message), new RegExp(`could not run \`sh\` in ${missing}: `));
  });
});

Deno.test("a service with a ready port is ready once 127.0.0.1:PORT accepts a connection", async () => {
  await inTempDir(async (dir) => {
    const port = freePort();
    const target = `http://127.0.0.1:${freePort()}`; // nothing answers there: the port decides
    const service = await startService(
      { command: serveCommand(port), url: target, readyPort: port },
      { logPath: join(dir, "service.log"), readyTimeoutMs: 20_000 },
    );
    assert.equal(await answers(port), true);
    await service.stop();
    const never = await startService(
      { command: "exec sleep 30", url: target, readyPort: freePort() },
      { logPath: join(dir, "service.log"), readyTimeoutMs: 500, stopGraceMs: 500 },
    ).then(() => undefined, (e: Error) => e);
    assert.match(String(never?.message), /did not answer on 127\.0\.0\.1:\d+ within 0\.5 s/);
  });
});

Deno.test("a service never ready: the error carries the reason and the log's last 10 lines", async () => {
  await inTempDir(async (dir) => {
    const port = freePort();
    const command = 'for i in $(seq 1 15); do echo "line $i"; done; exec sleep 30';
    const error = await startService(
      { command, url: `http://127.0.0.1:${port}` },
      { logPath: join(dir, "service.log"), readyTimeoutMs: 1_000, stopGraceMs: 500 },
    ).then(() => undefined, (e: Error) => e);
    assert.ok(error instanceof ServiceStartError, String(error));
    assert.match(error.reason, /^`for i .*` did not answer on 127\.0\.0\.1:\d+ within 1 s$/);
    assert.deepEqual(error.lastLines, Array.from({ length: 10 }, (_, i) => `line ${i + 6}`));
    assert.equal(error.stopped, false);
    assert.match(error.message, /its output: .*line 15$/, "the message keeps its one-line tail");
  });
});

Deno.test("a readiness URL that answers, but not 2xx: the error says its last answer", async () => {
  await inTempDir(async (dir) => {
    await using health = Deno.serve(
      { hostname: "127.0.0.1", port: 0, onListen() {} },
      () => new Response("starting", { status: 503 }),
    );
    const error = await startService(
      {
        command: "printf '\\033[33mwarn\\033[0m booting\\n'; exec sleep 30",
        url: `http://127.0.0.1:${freePort()}`,
        readyUrl: `http://127.0.0.1:${health.addr.port}/health`,
      },
      { logPath: join(dir, "service.log"), readyTimeoutMs: 1_000, stopGraceMs: 500 },
    ).then(() => undefined, (e: Error) => e);
    assert.ok(error instanceof ServiceStartError, String(error));
    assert.match(error.reason, /\(2xx\) within 1 s; it last answered 503$/);
    assert.deepEqual(error.lastLines, ["warn booting"], "colours are not shown as escapes");
  });
});
