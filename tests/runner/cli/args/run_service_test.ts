import assert from "node:assert/strict";
import { problemText } from "../../../../runner/model/result.ts";
import { join } from "node:path";
import { runPlanCommand } from "../../../../runner/cli/run_command.ts";
import { parseRunArgs } from "../../../../runner/cli/run_args.ts";
import { readStartArgs } from "../../../../runner/cli/args/run_service.ts";
import { freePort } from "../../../_helpers/free_port.ts";
import {
  alive,
  answers,
  daemonCommand,
  liveMembers,
  loggedGroup,
  loggedPids,
  serveCommand,
  serveProgram,
  setsidCommand,
} from "../../../_helpers/service_commands.ts";
import {
  loggedRequests,
  loginPlan,
  loginServerCommand,
  PASSWORD,
  SESSION,
  TOKEN,
} from "../../../_helpers/login_server.ts";

/** A temporary folder with a plan against 127.0.0.1:`port`, removed after `test`. */
async function withPlan(
  port: number,
  durationMs: number,
  test: (plan: string, out: string) => Promise<void>,
): Promise<void> {
  const dir = await Deno.makeTempDir();
  try {
    const plan = join(dir, "plan.yaml");
    await Deno.writeTextFile(
      plan,
      `name: started
target: http://127.0.0.1:${port}
requests: [{ path: /x }]
load:
  connections: 2
  stages: [{ rate: 100/s, duration: ${durationMs}ms }]
`,
    );
    await test(plan, join(dir, "out"));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("run --start starts the service, waits for --ready, runs, then ends its group", async () => {
  const port = freePort();
  await withPlan(port, 500, async (plan, out) => {
    const outcome = await runPlanCommand(
      {
        planPath: plan,
        outDir: out,
        caCertFiles: [],
        start: {
          command: `echo "group $$"; ${serveCommand(port)}`,
          readyUrl: `http://127.0.0.1:${port}/health`,
          readyTimeoutMs: 20_000,
        },
      },
      () => {},
    );
    assert.equal(outcome.exitCode, 0, outcome.errors.join("\n"));
    assert.equal(outcome.result?.run.complete, true);
    assert.ok(outcome.result!.totals.counts.completed > 0);
    const pgid = await loggedGroup(join(out, "service.log"));
    assert.match(await Deno.readTextFile(join(out, "service.log")), /^up$/m);
    assert.deepEqual(liveMembers(pgid), [], "the service's group is gone");
  });
});

Deno.test("run --start exits 4 with the last lines when the service never gets ready", async () => {
  const port = freePort();
  await withPlan(port, 500, async (plan, out) => {
    const command = 'echo "group $$"; echo "still booting"; (sleep 30) & exec sleep 30';
    const outcome = await runPlanCommand(
      { planPath: plan, outDir: out, caCertFiles: [], start: { command, readyTimeoutMs: 1_000 } },
      () => {},
    );
    assert.equal(outcome.exitCode, 4);
    assert.match(outcome.errors.join("\n"), /did not answer on 127\.0\.0\.1:\d+ within 1 s/);
    assert.match(outcome.errors.join("\n"), /still booting/);
    assert.match(outcome.errors.join("\n"), /service\.log/);
    assert.deepEqual(
      liveMembers(await loggedGroup(join(out, "service.log"))),
      [],
      "the service's group is gone",
    );
  });
});

Deno.test("run --start exits 4 with the exit status when the service exits before it is ready", async () => {
  const port = freePort();
  await withPlan(port, 500, async (plan, out) => {
    const command = 'echo "group $$"; echo "bad config" >&2; exit 3';
    const outcome = await runPlanCommand(
      { planPath: plan, outDir: out, caCertFiles: [], start: { command, readyTimeoutMs: 10_000 } },
      () => {},
    );
    assert.equal(outcome.exitCode, 4);
    assert.match(outcome.errors.join("\n"), /exited with code 3 before .* answered.*bad config/);
    assert.equal(outcome.result, undefined, "nothing was run");
  });
});

Deno.test("a --start service that exits mid-run ends it: exit 4, result.json whole, group gone", async () => {
  const port = freePort();
  await withPlan(port, 20_000, async (plan, out) => {
    // Its server lives on in the group after the first process exits: stop() must end it too.
    const command = `echo "group $$"; (${serveCommand(port)}) & sleep 3; echo dying; exit 7`;
    const started = performance.now();
    const outcome = await runPlanCommand(
      { planPath: plan, outDir: out, caCertFiles: [], start: { command, readyTimeoutMs: 20_000 } },
      () => {},
    );
    assert.ok(performance.now() - started < 15_000, "the run ended when the service did");
    assert.equal(outcome.exitCode, 4, outcome.errors.join("\n"));
    const errors = outcome.errors.join("\n");
    assert.match(errors, /exited with code 7 during the run; its last lines: .*dying/);
    const written = JSON.parse(await Deno.readTextFile(join(out, "result.json")));
    assert.equal(written.run.complete, false);
    assert.ok(
      !JSON.stringify(written).includes("sleep 3"),
      "the command (a secret?) is not stored",
    );
    assert.ok(written.totals.counts.completed > 0, "what was measured is kept");
    assert.ok(
      written.warnings.some((w: string) => /the service .* exited with code 7/.test(w)),
      JSON.stringify(written.warnings),
    );
    assert.deepEqual(
      liveMembers(await loggedGroup(join(out, "service.log"))),
      [],
      "the service's group is gone",
    );
  });
});

for (
  const [kind, command] of [["under setsid", setsidCommand], [
    "that daemonizes",
    daemonCommand,
  ]] as const
) {
  Deno.test(`run --start with a service ${kind}: exit 0, then nothing answers, its server gone`, async () => {
    const port = freePort();
    await withPlan(port, 500, async (plan, out) => {
      const outcome = await runPlanCommand(
        {
          planPath: plan,
          outDir: out,
          caCertFiles: [],
          start: { command: command(port), readyTimeoutMs: 20_000 },
        },
        () => {},
      );
      const pids = await loggedPids(join(out, "service.log")).catch(() => []);
      try {
        assert.equal(outcome.exitCode, 0, outcome.errors.join("\n"));
        assert.equal(pids.length, 1, "the server said its PID");
        assert.equal(await answers(port), false, "nothing answers on the port");
        assert.deepEqual(pids.filter(alive), [], "the server is gone");
        assert.deepEqual(outcome.errors, []);
      } finally {
        for (const pid of pids.filter(alive)) Deno.kill(pid, "SIGKILL");
      }
    });
  });
}

Deno.test("a daemon --start started that ends mid-run ends the run: exit 4, saying so", async () => {
  const port = freePort();
  await withPlan(port, 20_000, async (plan, out) => {
    // The command exits 0 at once; the server it left runs 3 s.
    const command = `(setsid timeout 3 ${serveProgram(port)} &); exit 0`;
    const started = performance.now();
    const outcome = await runPlanCommand(
      { planPath: plan, outDir: out, caCertFiles: [], start: { command, readyTimeoutMs: 20_000 } },
      () => {},
    );
    assert.ok(performance.now() - started < 15_000, "the run ended when the service did");
    assert.equal(outcome.exitCode, 4, outcome.errors.join("\n"));
    assert.match(
      outcome.errors.join("\n"),
      /the service \(--start\) ended during the run: its command had exited with code 0 and none of/,
    );
  });
});

Deno.test("Ctrl-C while a --start service gets ready stops it and exits 3", async () => {
  const port = freePort();
  await withPlan(port, 500, async (plan, out) => {
    const command = 'echo "group $$"; (trap "" TERM; sleep 30) & exec sleep 30';
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), 500);
    try {
      const outcome = await runPlanCommand(
        {
          planPath: plan,
          outDir: out,
          caCertFiles: [],
          start: { command, readyTimeoutMs: 20_000 },
        },
        () => {},
        controller.signal,
      );
      assert.equal(outcome.exitCode, 3);
      assert.match(outcome.errors.join("\n"), /was stopped/);
      assert.deepEqual(
        liveMembers(await loggedGroup(join(out, "service.log"))),
        [],
        "the service's group is gone",
      );
    } finally {
      clearTimeout(timer);
    }
  });
});

Deno.test("run reads --start, --ready and --ready-timeout (default 60 s), each checked", () => {
  const parsed = parseRunArgs([
    "p.yaml",
    "--start",
    "npm start",
    "--ready",
    "http://127.0.0.1:1/h",
  ]);
  assert.ok(parsed.ok);
  assert.deepEqual(parsed.value.start, {
    command: "npm start",
    readyUrl: "http://127.0.0.1:1/h",
    readyTimeoutMs: 60_000,
  });
  assert.deepEqual(readStartArgs({ start: "x", "ready-timeout": "2s" }), {
    ok: true,
    value: { command: "x", readyTimeoutMs: 2_000 },
  });
  const bad = parseRunArgs(["p.yaml", "--ready", "ftp://x", "--ready-timeout", "soon"]);
  assert.ok(!bad.ok);
  assert.match(bad.problems.map(problemText).join("\n"), /--ready, --ready-timeout need --start/);
  const worse = readStartArgs({ start: "x", ready: "ftp://x", "ready-timeout": "soon" });
  assert.ok(!worse.ok);
  assert.match(
    worse.problems.map(problemText).join("\n"),
    /--ready `ftp:\/\/x` is not an http\(s\) URL/,
  );
  assert.match(worse.problems.map(problemText).join("\n"), /--ready-timeout:/);
});

Deno.test("run --start with setup: the service starts, setup logs in, the token is sent, teardown runs", async () => {
  const port = freePort();
  const dir = await Deno.makeTempDir();
  Deno.env.set("API_PASSWORD", PASSWORD);
  try {
    const plan = join(dir, "plan.yaml");
    const log = join(dir, "requests.jsonl");
    await Deno.writeTextFile(
      plan,
      loginPlan(
        `http://127.0.0.1:${port}`,
        "load: { connections: 2, stages: [{ rate: 40/s, duration: 500ms }] }\n",
      ),
    );
    const out = join(dir, "out");
    const outcome = await runPlanCommand(
      {
        planPath: plan,
        outDir: out,
        caCertFiles: [],
        start: {
          command: `echo "group $$"; ${loginServerCommand(port, log)}`,
          readyUrl: `http://127.0.0.1:${port}/health`,
          readyTimeoutMs: 20_000,
        },
      },
      () => {},
    );
    assert.equal(outcome.exitCode, 0, outcome.errors.join("\n"));
    const seen = await loggedRequests(log);
    assert.deepEqual(seen.map((s) => s.path).filter((p) => !p.startsWith("/orders")), [
      "/login",
      `/sessions/${encodeURIComponent(`sid=${SESSION}`)}`,
    ]);
    const orders = seen.filter((s) => s.path === "/orders");
    assert.equal(orders.length, 20);
    assert.ok(orders.every((s) => s.auth === `Bearer ${TOKEN}`));
    assert.deepEqual(liveMembers(await loggedGroup(join(out, "service.log"))), []);
  } finally {
    Deno.env.delete("API_PASSWORD");
    await Deno.remove(dir, { recursive: true });
  }
});
