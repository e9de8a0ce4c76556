import assert from "node:assert/strict";
import { join } from "node:path";
import { startTarget } from "../../../mod.ts";
import { abCommand } from "../../../runner/cli/ab_command.ts";
import { EXIT_CODES } from "../../../runner/model/exit_codes.ts";
import type { RunResult } from "../../../runner/model/run_result.ts";
import { freePort } from "../../_helpers/free_port.ts";
import {
  loggedRequests,
  loginPlan,
  loginServer,
  loginServerCommand,
  PASSWORD,
  TOKEN,
} from "../../_helpers/login_server.ts";

Deno.test("tailgate ab exits 5 naming each file it could not write, and writes the others", async () => {
  await using base = await startTarget({ mode: "hello", port: 0 });
  await using head = await startTarget({ mode: "hello", port: 0 });
  const dir = await Deno.makeTempDir({ prefix: "tailgate-ab-" });
  try {
    const plan = join(dir, "ab.yaml");
    await Deno.writeTextFile(
      plan,
      `name: tiny-ab
target: ${base.url}
requests: [{ path: / }]
load: { connections: 2, stages: [{ rate: 40/s, duration: 500ms }] }
`,
    );
    const out = join(dir, "out");
    // A folder where a file goes: the write fails as on a full disk, whoever runs the test.
    await Deno.mkdir(join(out, "ab.html"), { recursive: true });
    await Deno.mkdir(join(out, "runs", "round-2-head.json"), { recursive: true });
    const progress: string[] = [];
    const outcome = await abCommand([
      plan,
      ...["--base", base.url, "--head", head.url, "--rounds", "3", "--out", out],
    ], (line) => progress.push(line));
    assert.equal(outcome.exitCode, EXIT_CODES.ioFailed, JSON.stringify(outcome.errors));
    // Said before the first round: 20 requests a round decide neither p99 nor p99.9.
    // Default metrics tailgate skips of its own accord: a note, said before the first round.
    const warned = progress.findIndex((l) => /note: p99 and p99\.9 cannot be judged/.test(l));
    assert.ok(warned >= 0, progress.join("\n"));
    assert.ok(warned < progress.findIndex((l) => l.startsWith("ab: round 1")));
    assert.match(progress[warned], /p99 needs 10,000, p99\.9 100,000 \(100 beyond each\)/);
    assert.match(progress[warned], /run the stage for at least 42m at 40\/s/);
    assert.equal(outcome.errors.length, 2, outcome.errors.join("\n"));
    assert.match(outcome.errors.join("\n"), /runs\/round-2-head\.json not written to .*out: /);
    assert.match(outcome.errors.join("\n"), /ab\.html not written to .*out\/ab\.html: /);
    const ab = JSON.parse(await Deno.readTextFile(join(out, "ab.json")));
    assert.equal(ab.settings.rounds, 3, "the comparison still ran every round");
    assert.equal(ab.rounds.length, 3);
    assert.ok((await Deno.stat(join(out, "ab-junit.xml"))).isFile);
    assert.match(outcome.output!, /wrote .*ab\.json/);
    assert.doesNotMatch(outcome.output!, /wrote .*ab\.html/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/** The issue's login plan at `url`, short: 20 requests a run; its path. */
async function writeLoginPlan(dir: string, url: string): Promise<string> {
  const plan = join(dir, "ab.yaml");
  const load = "load: { connections: 2, stages: [{ rate: 40/s, duration: 500ms }] }\n";
  await Deno.writeTextFile(plan, loginPlan(url, load));
  return plan;
}

Deno.test("ab with setup and --base-start/--head-start: every run logs in to the service it started", async () => {
  const [basePort, headPort] = [freePort(), freePort()];
  const dir = await Deno.makeTempDir({ prefix: "tailgate-ab-" });
  Deno.env.set("API_PASSWORD", PASSWORD);
  try {
    const plan = await writeLoginPlan(dir, `http://127.0.0.1:${basePort}`);
    const [baseLog, headLog] = [join(dir, "base.jsonl"), join(dir, "head.jsonl")];
    const outcome = await abCommand([
      plan,
      ...["--base", `http://127.0.0.1:${basePort}`, "--head", `http://127.0.0.1:${headPort}`],
      ...["--base-start", loginServerCommand(basePort, baseLog)],
      ...["--head-start", loginServerCommand(headPort, headLog)],
      ...["--base-ready", `http://127.0.0.1:${basePort}/health`],
      ...["--head-ready", `http://127.0.0.1:${headPort}/health`],
      ...["--rounds", "3", "--out", join(dir, "out")],
    ], () => {});
    assert.notEqual(outcome.exitCode, EXIT_CODES.unreachable, outcome.errors.join("\n"));
    assert.notEqual(outcome.exitCode, EXIT_CODES.usage, outcome.errors.join("\n"));
    for (const log of [baseLog, headLog]) {
      const seen = await loggedRequests(log);
      // Each round starts the service afresh: a login, the load with its token, a teardown.
      assert.equal(seen.filter((s) => s.path === "/login").length, 3, log);
      assert.equal(seen.filter((s) => s.method === "DELETE").length, 3, log);
      const orders = seen.filter((s) => s.path === "/orders");
      assert.equal(orders.length, 60, log);
      assert.ok(orders.every((s) => s.auth === `Bearer ${TOKEN}`), log);
    }
    if (Deno.build.os === "linux") {
      // Each run measured the wait for a CPU of the service it started, found by its group.
      for (const side of ["base", "head"]) {
        const run = JSON.parse(
          await Deno.readTextFile(join(dir, "out", "runs", `round-1-${side}.json`)),
        ) as RunResult;
        assert.equal(run.health.contention?.service?.found, "started", side);
      }
    }
  } finally {
    Deno.env.delete("API_PASSWORD");
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("ab whose setup fails exits 4 naming the round, the side and the step", async () => {
  const target = loginServer({ loginStatus: 500 });
  const dir = await Deno.makeTempDir({ prefix: "tailgate-ab-" });
  Deno.env.set("API_PASSWORD", PASSWORD);
  try {
    const plan = await writeLoginPlan(dir, target.url);
    const outcome = await abCommand([
      plan,
      ...["--base", target.url, "--head", target.url, "--rounds", "3", "--seed", "1"],
      ...["--out", join(dir, "out")],
    ], () => {});
    assert.equal(outcome.exitCode, EXIT_CODES.unreachable, outcome.errors.join("\n"));
    assert.match(
      outcome.errors[0],
      /^round 1, (base|head): setup step `login` \(POST .*\/login\) answered 500 \(expected 200\)/,
    );
    assert.ok(!outcome.errors[0].includes(PASSWORD));
    assert.equal(target.seen.filter((s) => s.path === "/orders").length, 0);
  } finally {
    Deno.env.delete("API_PASSWORD");
    await target.server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("ab's --base-ready and --head-ready need their start command and an http(s) URL", async () => {
  const outcome = await abCommand([
    "plan.yaml",
    ...["--base", "http://127.0.0.1:9001", "--head", "http://127.0.0.1:9002"],
    ...["--base-ready", "http://127.0.0.1:9001/health", "--head-start", "x", "--head-ready", "/h"],
  ], () => {});
  assert.equal(outcome.exitCode, EXIT_CODES.usage);
  assert.deepEqual(outcome.errors, [
    "--base-ready needs --base-start: the command that starts base",
    "--head-ready `/h` is not an http(s) URL",
  ]);
});

Deno.test("ab --fail-fast: a head that fails for certain is stopped and the comparison ends a fail", async () => {
  await using base = await startTarget({ mode: "hello", port: 0 });
  const failing = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    () => new Response("no", { status: 500 }),
  );
  const head = `http://127.0.0.1:${failing.addr.port}`;
  const dir = await Deno.makeTempDir({ prefix: "tailgate-ab-" });
  try {
    const plan = join(dir, "ab.yaml");
    await Deno.writeTextFile(
      plan,
      `name: fail-fast-ab
target: ${base.url}
requests: [{ path: / }]
load: { connections: 2, stages: [{ rate: 100/s, duration: 30s }] }
slo: [error_rate < 1%, p99 < 5s]
`,
    );
    // Fail-fast stops only on two reports in a row (a second apart) with the generator within the
    // run's lateness limit. The loose latency SLO sets that limit at 500 ms, and 30 s leave many
    // chances, so the head stops even while a busy machine (the whole suite in parallel, on two
    // cores) holds the generator back for seconds. Seed 1 runs the head first in round 1, so the
    // test takes the seconds fail-fast takes, not the base's 30.
    const out = join(dir, "out");
    const outcome = await abCommand([
      plan,
      ...["--base", base.url, "--head", head, "--rounds", "3", "--out", out, "--fail-fast"],
      ...["--seed", "1"],
    ], () => {});
    assert.equal(outcome.exitCode, EXIT_CODES.gateFailed, outcome.errors.join("\n"));
    const ab = JSON.parse(await Deno.readTextFile(join(out, "ab.json")));
    // The first round's head stopped: no further round ran (and if one did, each run says why).
    assert.equal(ab.rounds.length, 1, await runsInWords(join(out, "runs")));
    assert.equal(ab.complete, false);
    assert.deepEqual([ab.stoppedBy.round, ab.stoppedBy.slo], [1, "error_rate < 1%"]);
    assert.equal(ab.verdict.status, "fail");
    assert.match(
      ab.verdict.message,
      /^head's run in round 1 was stopped by fail-fast: \d+ requests/,
    );
    // Both fail: the head answered nothing but 500s, so it has no latency that could pass either.
    assert.deepEqual(ab.slos.map((s: { status: string }) => s.status), ["fail", "fail"]);
    const headRun = JSON.parse(await Deno.readTextFile(join(out, "runs", "round-1-head.json")));
    assert.equal(headRun.run.stopReason, "fail_fast");
    assert.ok(headRun.run.durationMs < 25_000, `head ran ${headRun.run.durationMs} ms of 30 s`);
  } finally {
    await failing.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("ab's --fail-on takes run's values and refuses the rest before anything runs", async () => {
  const outcome = await abCommand([
    "plan.yaml",
    ...["--base", "http://127.0.0.1:9001", "--head", "http://127.0.0.1:9002"],
    ...["--fail-on", "never"],
  ], () => {});
  assert.equal(outcome.exitCode, EXIT_CODES.usage);
  assert.deepEqual(outcome.errors, [
    "--fail-on: `never` is not one of inconclusive, inconclusive-slo, inconclusive-sampling, fail",
  ]);
});

/** Each run in `dir`: how long it ran, why it stopped, and the generator's longest dispatch lag. */
async function runsInWords(dir: string): Promise<string> {
  const lines: string[] = [];
  for await (const f of Deno.readDir(dir)) {
    const { run, health } = JSON.parse(await Deno.readTextFile(join(dir, f.name)));
    lines.push(
      `${f.name}: ${Math.round(run.durationMs)} ms, stopped: ${run.stopReason}, ` +
        `dispatch lag max ${health?.dispatchLag?.maxUs} us`,
    );
  }
  return lines.sort().join("\n");
}

Deno.test("ab does not start the plan's service, and says so before anything runs", async () => {
  const dir = await Deno.makeTempDir({ prefix: "tailgate-ab-" });
  try {
    const plan = join(dir, "ab.yaml");
    await Deno.writeTextFile(
      plan,
      `name: served-ab
target: http://127.0.0.1:9001
requests: [{ path: / }]
load: { connections: 2, stages: [{ rate: 40/s, duration: 300ms }] }
service: { start: "echo started > ${join(dir, "started")}; exec sleep 30" }
`,
    );
    // A file where the out folder goes: ab stops there, after reading the plan.
    const out = join(dir, "out");
    await Deno.writeTextFile(out, "");
    const progress: string[] = [];
    const outcome = await abCommand([
      plan,
      ...["--base", "http://127.0.0.1:9001", "--head", "http://127.0.0.1:9002", "--out", out],
    ], (line) => progress.push(line));
    assert.equal(outcome.exitCode, EXIT_CODES.usage, JSON.stringify(outcome.errors));
    assert.ok(
      progress.includes(
        "ab: the plan's service is not started: ab starts each build itself " +
          "(--base-start, --head-start), or finds it running at --base and --head",
      ),
      progress.join("\n"),
    );
    await assert.rejects(Deno.stat(join(dir, "started")), Deno.errors.NotFound);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
