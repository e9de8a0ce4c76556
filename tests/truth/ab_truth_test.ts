/**
 * Truth test for the paired A/B comparison, end to end through the CLI with targets it starts and
 * stops itself: the built-in fixed-delay target as base and head. The same build twice, beside a
 * busy neighbour, is no regression and exits 0; a head 20% slower (6 ms against 5 ms) is one,
 * beyond doubt, with every report written and every run's result kept.
 *
 * Sized for a 2-core runner, where tailgate, the target and the test share two cores: now and then
 * a run loses some 30 ms to the machine, its lateness or engine stalls pass the 10 ms at p99 that a
 * sound run allows, and it is tool-limited: its round is left out of the comparison, and a head run
 * whose sends fell behind cannot pass the SLO. So the steady stage is 3 s (such a pause must reach
 * ~40 ms to move p99), and the slower head gets 6 rounds: the decision is Holm's at 99.9%, which
 * 3 rounds (2 degrees of freedom, t > 31.6) miss two times in three and even 4 in about 3%, while
 * 5 or 6 decide it every time. The same build keeps 4 rounds: a false alarm is held at 0.1% by
 * Holm's level whatever the count, and each more head run is one more that must pass the SLO.
 */
import assert from "node:assert/strict";
import { freePort } from "../_helpers/free_port.ts";
import { join } from "node:path";
import { main } from "../../cli.ts";
import { capture } from "../_helpers/cli_capture.ts";

const CLI = new URL("../../cli.ts", import.meta.url).pathname;

async function ab(dir: string, headDelay: string, rounds: number) {
  const plan = join(dir, "plan.yaml");
  await Deno.writeTextFile(
    plan,
    `name: ab-truth
target: http://127.0.0.1:1
requests: [{ path: / }]
load:
  connections: 8
  stages:
    - { name: warmup, rate: 200/s, duration: 500ms, warmup: true }
    - { name: steady, rate: 300/s, duration: 3s }
slo: [p99 < 50ms]
regression: { p50: 5%, p90: 5% }
`,
  );
  const [base, head] = [freePort(), freePort()];
  const target = (delay: string, port: number) =>
    `exec ${Deno.execPath()} run -A ${CLI} target --mode fixed --delay ${delay} --port ${port}`;
  const io = capture();
  const out = join(dir, `out-${headDelay}`);
  const code = await main([
    "ab",
    plan,
    ...["--base", `http://127.0.0.1:${base}`, "--head", `http://127.0.0.1:${head}`],
    ...["--base-start", target("5ms", base), "--head-start", target(headDelay, head)],
    ...["--rounds", `${rounds}`, "--seed", "3", "--out", out],
  ], io);
  const printed = () => [...io.err, ...io.out].join("\n");
  const text = await Deno.readTextFile(join(out, "ab.json")).catch((e) => {
    throw new Error(`no ab.json (exit ${code}: ${e.message}); tailgate printed:\n${printed()}`);
  });
  const result = JSON.parse(text);
  /** What tailgate printed and why each left-out run was tool-limited: for failure messages. */
  const why = async () => {
    const limited = [];
    for (const round of result.rounds) {
      for (const run of round.runs.filter((r: { toolLimited: boolean }) => r.toolLimited)) {
        const r = JSON.parse(await Deno.readTextFile(join(out, run.resultFile)));
        limited.push(`round ${round.index} ${run.side}: ${r.health.reasons.join("; ")}`);
      }
    }
    return `exit ${code}\n${printed()}\ntool-limited runs: ${limited.join("\n") || "none"}`;
  };
  return { code, result, out, why };
}

/**
 * A bounded busy loop (a noisy neighbour on a shared runner), stopped by its PID when disposed;
 * `timeout` ends it by itself after `seconds` in any case.
 */
function busyLoop(seconds: number): AsyncDisposable {
  const child = new Deno.Command("timeout", {
    args: [String(seconds), "sh", "-c", "while :; do :; done"],
    stdout: "null",
    stderr: "null",
  }).spawn();
  return {
    async [Symbol.asyncDispose]() {
      try {
        child.kill("SIGTERM");
      } catch { /* already ended */ }
      await child.status;
    },
  };
}

Deno.test("tailgate ab: the same build twice is no regression; a head 20% slower is one", async () => {
  const dir = await Deno.makeTempDir({ prefix: "tailgate-ab-" });
  try {
    // The same build twice, beside a busy neighbour: the runner must not turn the job red.
    const same = await (async () => {
      await using _neighbour = busyLoop(120);
      return await ab(dir, "5ms", 4);
    })();
    const statuses = same.result.comparisons.map((c: { status: string }) => c.status);
    assert.ok(!statuses.includes("fail"), await same.why());
    assert.equal(same.code, 0, await same.why());
    assert.equal(same.result.rounds.length, 4);
    // Its SLO passes, or is a warning the runner caused: never a fail, never red.
    for (const slo of same.result.slos) {
      assert.notEqual(slo.status, "fail", await same.why());
      if (slo.status !== "pass") {
        assert.equal(same.result.verdict.runnerOnly, true, await same.why());
      }
    }

    const rounds = 6;
    const slower = await ab(dir, "6ms", rounds);
    assert.equal(slower.code, 1, await slower.why());
    assert.equal(slower.result.rounds.length, rounds);
    const p50 = slower.result.comparisons.find((c: { metric: string }) => c.metric === "p50");
    assert.equal(p50.status, "fail", await slower.why());
    assert.ok(p50.change > 0.12 && p50.change < 0.28, `${p50.change}: ${p50.message}`);
    for (
      const f of [
        "ab.md",
        "ab.html",
        "ab-junit.xml",
        "runs/round-1-base.json",
        `runs/round-${rounds}-head.json`,
      ]
    ) {
      await Deno.stat(join(slower.out, f));
    }
    // The targets it started were stopped: nothing answers on their ports.
    const url = slower.result.targets.head.url;
    await assert.rejects(fetch(url).then((r) => r.body?.cancel()));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
