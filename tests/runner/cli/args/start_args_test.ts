import assert from "node:assert/strict";
import { problemText } from "../../../../runner/model/result.ts";
import { join } from "node:path";
import { runPlanCommand } from "../../../../runner/cli/run_command.ts";
import { parseRunArgs } from "../../../../runner/cli/run_args.ts";
import { readStartArgs } from "../../../../runner/cli/args/start_args.ts";
import { serviceToStart } from "../../../../runner/api/service_to_start.ts";
import { main } from "../../../../cli.ts";
import { capture } from "../../../_helpers/cli_capture.ts";
import { startTarget } from "../../../../runner/target/mod.ts";
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
    assert.match(outcome.errors.join("\n"), /service\.log/);
    assert.match(outcome.notes.join("\n"), /^ {2}still booting$/m);
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
    assert.match(outcome.errors.join("\n"), /exited with code 3 before .* answered/);
    assert.match(outcome.notes.join("\n"), /^ {2}bad config$/m);
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

Deno.test("run reads --start, --ready (a URL or a port) and --ready-timeout, each checked", () => {
  const parsed = parseRunArgs([
    "p.yaml",
    "--start",
    "npm start",
    "--ready",
    "http://127.0.0.1:1/h",
  ]);
  assert.ok(parsed.ok);
  assert.deepEqual(parsed.value.start, { command: "npm start", readyUrl: "http://127.0.0.1:1/h" });
  assert.deepEqual(
    serviceToStart(parsed.value.start, {}),
    {
      ok: true,
      value: {
        command: "npm start",
        ready: { url: "http://127.0.0.1:1/h" },
        readyTimeoutMs: 60_000,
        env: {},
        origin: "--start",
      },
    },
    "60 s unless told",
  );
  assert.deepEqual(readStartArgs({ start: "x", "ready-timeout": "2s" }), {
    ok: true,
    value: { command: "x", readyTimeoutMs: 2_000 },
  });
  const bad = parseRunArgs(["p.yaml", "--ready", "ftp://x", "--ready-timeout", "soon"]);
  assert.ok(!bad.ok);
  const said = bad.problems.map(problemText).join("\n");
  assert.match(said, /--ready `ftp:\/\/x` is neither an http\(s\) URL nor a port/);
  assert.match(said, /--ready-timeout:/);
  const worse = readStartArgs({ start: " ", ready: "70000", "ready-timeout": "0s" });
  assert.ok(!worse.ok);
  assert.deepEqual(worse.problems.map(problemText), [
    "--start: give the command that starts the service",
    "--ready 70000: a port is 1 to 65535",
    "--ready-timeout: give a duration above zero",
  ]);
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

/** A folder with `plan.yaml` against 127.0.0.1:`port`, its `service` section `service`. */
async function withServicePlan(
  port: number,
  service: string,
  test: (plan: string, out: string, dir: string) => Promise<void>,
): Promise<void> {
  const dir = await Deno.makeTempDir();
  try {
    const plan = join(dir, "plan.yaml");
    await Deno.writeTextFile(
      plan,
      `name: served
target: http://127.0.0.1:${port}
requests: [{ path: /x }]
load:
  connections: 2
  stages: [{ rate: 100/s, duration: 300ms }]
${service}
`,
    );
    await test(plan, join(dir, "out"), dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("a plan's service starts in its folder with its env, the wait is said, the run passes", async () => {
  const port = freePort();
  const command = `echo "greeting $GREETING in $(pwd)"; ${serveCommand(port)}`;
  await withServicePlan(
    port,
    `service:
  start: ${JSON.stringify(command)}
  ready: http://127.0.0.1:${port}/health
  timeout: 20s
  cwd: srv
  env: { GREETING: hi }`,
    async (plan, out, dir) => {
      await Deno.mkdir(join(dir, "srv"));
      const io = capture();
      const code = await main(["run", plan, "--out", out, "--no-baseline"], io);
      assert.equal(code, 0, io.err.join("\n"));
      assert.ok(
        io.err.some((l) =>
          /^starting `echo "greeting \$GREETING in \$\(pwd\)"; exec .*` \(waiting for http:\/\/127\.0\.0\.1:\d+\/health\)$/
            .test(l)
        ),
        io.err.join("\n"),
      );
      assert.ok(io.err.some((l) => /^ready after \d+\.\ds$/.test(l)), io.err.join("\n"));
      const log = await Deno.readTextFile(join(out, "service.log"));
      assert.match(
        log,
        new RegExp(`^greeting hi in ${await Deno.realPath(join(dir, "srv"))}$`, "m"),
      );
      assert.equal(await answers(port), false, "stopped after the run");
    },
  );
});

Deno.test("--start replaces the plan's service; --ready and --ready-timeout override its own", async () => {
  const port = freePort();
  // The plan's command fails at once: only --start can serve.
  await withServicePlan(
    port,
    "service: { start: 'echo plan; exit 3', timeout: 1s }",
    async (plan, out) => {
      const io = capture();
      const code = await main(
        ["run", plan, "--out", out, "--no-baseline", "--start", serveCommand(port)],
        io,
      );
      assert.equal(code, 0, io.err.join("\n"));
      assert.doesNotMatch(await Deno.readTextFile(join(out, "service.log")), /^plan$/m);
    },
  );
  // The plan's ready port never answers and its timeout is short: the flags decide.
  const never = freePort();
  await withServicePlan(
    port,
    `service: { start: ${JSON.stringify(serveCommand(port))}, ready: ${never}, timeout: 1ms }`,
    async (plan, out) => {
      const io = capture();
      const flags = ["--ready", `http://127.0.0.1:${port}/health`, "--ready-timeout", "20s"];
      const code = await main(["run", plan, "--out", out, "--no-baseline", ...flags], io);
      assert.equal(code, 0, io.err.join("\n"));
      assert.ok(
        io.err.some((l) => l.endsWith(`(waiting for http://127.0.0.1:${port}/health)`)),
        io.err.join("\n"),
      );
    },
  );
});

Deno.test("a plan's service never ready: exit 4, the reason, then its last lines one by one", async () => {
  const port = freePort();
  await withServicePlan(
    port,
    `service: { start: 'for i in $(seq 1 12); do echo "boot $i"; done; exec sleep 30', timeout: 1s }`,
    async (plan, out) => {
      const io = capture();
      const code = await main(["run", plan, "--out", out, "--no-baseline"], io);
      assert.equal(code, 4, io.err.join("\n"));
      const text = io.err.join("\n");
      assert.match(
        text,
        /^tailgate run: the plan's service: `for i .*` did not answer on 127\.0\.0\.1:\d+ within 1 s \(all of it in .*service\.log\)$/m,
      );
      const tail = text.slice(text.indexOf("last 10 lines"));
      assert.match(
        tail,
        /^last 10 lines of .*service\.log:\n {2}boot 3\n(?: {2}boot \d+\n){8} {2}boot 12$/m,
      );
      assert.doesNotMatch(text, /boot 2$/m, "only the last lines");
    },
  );
});

Deno.test("--no-start runs against a service already up; without it, the plan's start is refused", async () => {
  await using target = await startTarget({ mode: "hello", port: 0 });
  const port = Number(new URL(target.url).port);
  await withServicePlan(port, "service: { start: 'exec sleep 30' }", async (plan, out) => {
    const io = capture();
    assert.equal(await main(["run", plan, "--out", out, "--no-baseline", "--no-start"], io), 0);
    assert.ok(!io.err.some((l) => l.startsWith("starting")), io.err.join("\n"));
    const refused = capture();
    assert.equal(await main(["run", plan, "--out", out, "--no-baseline"], refused), 4);
    assert.match(
      refused.err.join("\n"),
      /the plan's service: something already listens on 127\.0\.0\.1:\d+, .*--no-start/,
    );
  });
});

Deno.test("--start, --ready and --no-start are checked against each other and the plan", () => {
  const contradict = parseRunArgs(["p.yaml", "--start", "x", "--no-start"]);
  assert.ok(!contradict.ok);
  assert.match(problemText(contradict.problems[0]), /--start and --no-start/);
  const port = parseRunArgs(["p.yaml", "--ready", "3917"]);
  assert.ok(port.ok);
  assert.deepEqual(port.value.start, { readyPort: 3917 });
  const plan = { service: undefined };
  const stray = serviceToStart({ readyPort: 3917 }, plan);
  assert.ok(!stray.ok);
  assert.match(problemText(stray.problems[0]), /--ready needs --start, or a `service` in the plan/);
  assert.deepEqual(serviceToStart(undefined, plan), { ok: true, value: undefined });
});
