/**
 * Truth test for the paired A/B comparison, end to end through the CLI with targets it starts and
 * stops itself: the built-in fixed-delay target as base and head. The same build twice is no
 * regression; a head 20% slower (6 ms against 5 ms) is one, beyond doubt, with every report
 * written and every run's result kept.
 */
import assert from "node:assert/strict";
import { freePort } from "../_helpers/free_port.ts";
import { join } from "node:path";
import { main } from "../../cli.ts";
import { capture } from "../_helpers/cli_capture.ts";

const CLI = new URL("../../cli.ts", import.meta.url).pathname;

async function ab(dir: string, headDelay: string) {
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
    - { name: steady, rate: 300/s, duration: 2s }
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
    ...["--rounds", "4", "--seed", "3", "--out", out],
  ], io);
  const result = JSON.parse(await Deno.readTextFile(join(out, "ab.json")));
  return { code, result, io, out };
}

Deno.test("tailgate ab: the same build twice is no regression; a head 20% slower is one", async () => {
  const dir = await Deno.makeTempDir({ prefix: "tailgate-ab-" });
  try {
    const same = await ab(dir, "5ms");
    const statuses = same.result.comparisons.map((c: { status: string }) => c.status);
    assert.ok(!statuses.includes("fail"), same.io.out.join("\n"));
    assert.notEqual(same.code, 1, same.io.out.join("\n"));
    assert.equal(same.result.rounds.length, 4);
    assert.deepEqual(same.result.slos.map((s: { status: string }) => s.status), ["pass"]);

    const slower = await ab(dir, "6ms");
    assert.equal(slower.code, 1, slower.io.out.join("\n"));
    const p50 = slower.result.comparisons.find((c: { metric: string }) => c.metric === "p50");
    assert.equal(p50.status, "fail", p50.message);
    assert.ok(p50.change > 0.12 && p50.change < 0.28, `${p50.change}`);
    for (
      const f of [
        "ab.md",
        "ab.html",
        "ab-junit.xml",
        "runs/round-1-base.json",
        "runs/round-4-head.json",
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
