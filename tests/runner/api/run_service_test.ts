import assert from "node:assert/strict";
import { join } from "node:path";
import { startRunService } from "../../../runner/api/mod.ts";
import { freePort } from "../../_helpers/free_port.ts";
import { answers, serveCommand } from "../../_helpers/service_commands.ts";

/** Runs `test` in a temporary folder, removed after. */
async function inTempDir(test: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir();
  try {
    await test(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("startRunService() says the start, the wait going on and the service ready", async () => {
  await inTempDir(async (dir) => {
    const port = freePort();
    const lines: string[] = [];
    const started = await startRunService(
      {
        command: `sleep 1; ${serveCommand(port)}`,
        ready: { port },
        readyTimeoutMs: 20_000,
        env: {},
        origin: "plan",
      },
      `http://127.0.0.1:${freePort()}`,
      { outDir: join(dir, "out"), onProgress: (l) => lines.push(l), waitNoticeMs: 300 },
    );
    assert.ok(started.ok, JSON.stringify(started));
    await started.value.stop();
    assert.equal(await answers(port), false);
    assert.equal(
      lines[0],
      `starting \`sleep 1; ${
        serveCommand(port)
      }\` (waiting for 127.0.0.1:${port} to accept a connection)`,
    );
    const waiting = lines.slice(1, -1);
    assert.ok(waiting.length >= 1, lines.join("\n"));
    for (const line of waiting) {
      assert.match(
        line,
        /^still waiting for 127\.0\.0\.1:\d+ to accept a connection \(\d+s of 20s\)$/,
      );
    }
    assert.match(lines.at(-1)!, /^ready after \d+\.\ds$/);
  });
});

Deno.test("startRunService() returns why a service is not ready, with its last lines", async () => {
  await inTempDir(async (dir) => {
    const failure = await startRunService(
      {
        command: "echo booting; echo broken >&2; exit 3",
        readyTimeoutMs: 20_000,
        env: {},
        origin: "--start",
      },
      `http://127.0.0.1:${freePort()}`,
      { outDir: dir },
    );
    assert.ok(!failure.ok);
    const [why] = failure.problems;
    assert.match(
      why.message,
      /^--start: `echo booting.*` exited with code 3 before 127\.0\.0\.1:\d+ answered \(all of it in .*service\.log\)$/,
    );
    assert.deepEqual(why.lastLines, ["booting", "broken"]);
    assert.equal(why.stopped, false);
    assert.equal(why.logPath, join(dir, "service.log"));
    const stopped = await startRunService(
      { command: "exec sleep 30", readyTimeoutMs: 20_000, env: {}, origin: "plan" },
      `http://127.0.0.1:${freePort()}`,
      { outDir: dir, signal: AbortSignal.timeout(300) },
    );
    assert.ok(!stopped.ok);
    assert.equal(stopped.problems[0].stopped, true);
    assert.match(stopped.problems[0].message, /^the plan's service: `exec sleep 30` was stopped/);
  });
});
