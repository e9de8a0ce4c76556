/**
 * Sharding on one machine, as it would run on four: four `tailgate run --shard I/4` processes
 * with a common `--start-at`, each at a quarter of the rate, against the built-in stall target
 * (frozen 1 s in every 5 s: corrected p90 = 500 ms, p99 = 950 ms, see stall_truth_test.ts), then
 * `tailgate merge`. The merged result must hold exactly the plan's requests, and its percentiles
 * must be the known truth, as a single unsharded run's are.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath as fromFileUrl } from "node:url";
import { readRunResult } from "../../runner/result/read_run_result.ts";
import type { EncodedHistogram, RunResult } from "../../runner/model/run_result.ts";
import { startTargetProcess } from "../_helpers/target_process.ts";
import { offTruth, STALL_TARGET_ARGS, STALL_TRUTH } from "../_helpers/truth.ts";

const CLI = fromFileUrl(new URL("../../cli.ts", import.meta.url));
const SHARDS = 4;

function plan(url: string): string {
  return `name: sharded-stall
target: ${url}
requests: [{ path: / }]
load:
  workers: 1
  connections: 8
  max_connections: 200
  stages:
    - { name: warm, rate: 400/s, duration: 1s, warmup: true }
    - { name: steady, rate: 400/s, duration: 10s }
slo:
  - p90 < 2s
`;
}

async function tailgate(args: string[]): Promise<{ code: number; stderr: string }> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", CLI, ...args],
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).output();
  return { code: out.code, stderr: new TextDecoder().decode(out.stderr) };
}

async function resultIn(dir: string): Promise<RunResult> {
  const read = readRunResult(await Deno.readTextFile(join(dir, "result.json")));
  assert.ok(read.ok);
  return read.value;
}

Deno.test("4 shards at rate/4, merged, hold the plan's requests and the stall's true percentiles", async () => {
  await using target = await startTargetProcess(STALL_TARGET_ARGS);
  const dir = await Deno.makeTempDir({ prefix: "tailgate-shards-" });
  try {
    const planFile = join(dir, "plan.yaml");
    await Deno.writeTextFile(planFile, plan(target.url));
    // Far enough ahead for four cold processes on two cores to be ready.
    const startAt = new Date(Date.now() + 8_000).toISOString();
    const shards = await Promise.all(
      Array.from({ length: SHARDS }, (_, i) =>
        tailgate([
          "run",
          planFile,
          "--shard",
          `${i}/${SHARDS}`,
          "--start-at",
          startAt,
          "--out",
          join(dir, `shard-${i}`),
          "--report",
          "json",
          "--no-baseline",
        ])),
    );
    for (const [i, s] of shards.entries()) assert.equal(s.code, 0, `shard ${i}: ${s.stderr}`);
    const merged = await tailgate([
      "merge",
      ...Array.from({ length: SHARDS }, (_, i) => join(dir, `shard-${i}`, "result.json")),
      "--out",
      join(dir, "merged"),
      "--no-baseline",
      "--report",
      "all",
    ]);
    assert.equal(merged.code, 0, merged.stderr);
    assert.doesNotMatch(merged.stderr, /started up to/, "a common --start-at aligns the shards");
    const result = await resultIn(join(dir, "merged"));
    const steady = result.stages[1];
    // Exactly the plan's requests: 400/s for 1 s + 10 s, split and reunited.
    assert.equal(result.run.mergedShards, SHARDS);
    assert.equal(result.totals.counts.scheduled, 4400);
    assert.equal(steady.counts.scheduled, 4000);
    assert.equal(steady.counts.completed, 4000);
    assert.equal(steady.counts.ok, 4000);
    assert.deepEqual(result.verdicts.map((v) => [v.name, v.status]), [["p90 < 2s", "pass"]]);
    for (const file of ["report.html", "junit.xml", "summary.md", "latency.hlog"]) {
      assert.ok((await Deno.stat(join(dir, "merged", file))).size > 0, file);
    }

    // One unsharded run of the same plan measures the same truth.
    const single = await tailgate(["run", planFile, "--out", join(dir, "single"), "--no-baseline"]);
    assert.equal(single.code, 0, single.stderr);
    const whole = await resultIn(join(dir, "single"));
    assert.equal(whole.stages[1].counts.scheduled, steady.counts.scheduled);
    // Within noise of each other, and of the truth: five processes share two cores while the
    // stall ends, so the tolerance is 10% (or 10 ms), not the 5% of a lone run.
    const wide = (h: EncodedHistogram) => offTruth(h, STALL_TRUTH, 0.1, 10);
    assert.deepEqual(wide(steady.response), [], "merged shards");
    assert.deepEqual(wide(whole.stages[1].response), [], "single run");
    for (const p of ["90", "99"]) {
      const mergedMs = steady.response.percentilesUs[p] / 1000;
      const singleMs = whole.stages[1].response.percentilesUs[p] / 1000;
      assert.ok(
        Math.abs(mergedMs - singleMs) <= Math.max(10, 0.1 * singleMs),
        `p${p}: merged ${mergedMs} ms, single ${singleMs} ms`,
      );
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
