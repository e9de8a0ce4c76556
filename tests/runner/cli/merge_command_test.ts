import assert from "node:assert/strict";
import { join } from "node:path";
import { mergeCommand } from "../../../runner/cli/merge_command.ts";
import { loadHistory } from "../../../runner/history/mod.ts";
import { readRunResult } from "../../../runner/result/read_run_result.ts";
import type { RunResult } from "../../../runner/model/run_result.ts";
import { parseText } from "../../_helpers/plan_fixtures.ts";
import { recordShard, SHARD_PLAN, shardPlan, shardResults } from "../../_helpers/shard_fixtures.ts";

async function writeShards(
  dir: string,
  count: number,
  plan = shardPlan(),
  failEvery?: number,
): Promise<string[]> {
  const files: string[] = [];
  for (const [i, r] of shardResults(plan, count, undefined, failEvery).entries()) {
    const file = join(dir, `shard-${i}`, "result.json");
    await Deno.mkdir(join(dir, `shard-${i}`));
    await Deno.writeTextFile(file, JSON.stringify(r));
    files.push(file);
  }
  return files;
}

/** Two shard files, shard `index` changed by `alter` as a hand or a broken disk might. */
async function alteredShards(
  dir: string,
  index: number,
  alter: (shard: RunResult) => void,
): Promise<string[]> {
  const files = await writeShards(dir, 2);
  const shard = JSON.parse(await Deno.readTextFile(files[index]));
  alter(shard);
  await Deno.writeTextFile(files[index], JSON.stringify(shard));
  return files;
}

Deno.test("tailgate merge writes the merged result and reports, judged once", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const files = await writeShards(dir, 3);
    const out = join(dir, "merged");
    const outcome = await mergeCommand([...files, "--out", out, "--no-baseline", "--no-color"]);
    assert.deepEqual(outcome.errors, []);
    assert.match(outcome.output!, /^merged 3 shard results/);
    const read = readRunResult(await Deno.readTextFile(join(out, "result.json")));
    assert.ok(read.ok);
    assert.equal(read.value.run.mergedShards, 3);
    assert.equal(
      read.value.totals.counts.scheduled,
      recordShard(shardPlan()).totals.counts.scheduled,
    );
    assert.deepEqual(read.value.verdicts.map((v) => [v.name, v.status]), [["p99 < 80ms", "pass"]]);
    assert.equal(outcome.exitCode, 0);
    const written = [...Deno.readDirSync(out)].map((e) => e.name).sort();
    assert.deepEqual(written, ["junit.xml", "report.html", "result.json", "summary.md"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("tailgate merge names a missing shard and a bad option, exit 2, writing nothing", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const files = await writeShards(dir, 3);
    const out = join(dir, "merged");
    const missing = await mergeCommand([files[0], files[2], "--out", out]);
    assert.equal(missing.exitCode, 2);
    assert.match(missing.errors[0], /^shard 1\/3 missing/);
    const badReport = await mergeCommand([...files, "--report", "pdf"]);
    assert.match(badReport.errors[0], /--report: unknown report format `pdf`/);
    const unknown = await mergeCommand([...files, "--frobnicate"]);
    assert.match(unknown.errors[0], /unknown option `--frobnicate`; the options are --out/);
    const none = await mergeCommand([]);
    assert.match(none.errors[0], /name the shard results/);
    await assert.rejects(Deno.stat(out), Deno.errors.NotFound);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("tailgate merge refuses a shard whose counts do not add up, naming file, stage and counts", async () => {
  const dir = await Deno.makeTempDir();
  try {
    // Seven requests scheduled that no count accounts for: not a run anyone measured.
    const files = await alteredShards(dir, 1, (shard) => {
      shard.stages[2].counts.scheduled += 7;
      shard.stages[2].labels[0].counts.scheduled += 7;
      shard.totals.counts.scheduled += 7;
    });
    const out = join(dir, "merged");
    const outcome = await mergeCommand([...files, "--out", out, "--no-baseline"]);
    assert.equal(outcome.exitCode, 2);
    assert.match(
      outcome.errors[0],
      new RegExp(
        `^${
          files[1]
        }: stages\\[2\\]\\.labels\\[0\\]\\.counts \\(stage "hold", label "GET /a"\\): ` +
          "scheduled \\d+ but completed \\d+ in a complete run: 7 requests unaccounted for",
      ),
    );
    await assert.rejects(Deno.stat(out), Deno.errors.NotFound);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("tailgate merge refuses a shard whose status codes are not its answers, naming file and path", async () => {
  const dir = await Deno.makeTempDir();
  try {
    // The forgery: a label's requests all ok beside 7 responses by status code.
    const files = await alteredShards(dir, 1, (shard) => {
      shard.stages[2].labels[0].counts.statusCodes = { "200": 7 };
    });
    const out = join(dir, "merged");
    const outcome = await mergeCommand([...files, "--out", out, "--no-baseline"]);
    assert.equal(outcome.exitCode, 2);
    assert.match(
      outcome.errors[0],
      new RegExp(
        `^${
          files[1]
        }: stages\\[2\\]\\.labels\\[0\\]\\.counts \\(stage "hold", label "GET /a"\\): ` +
          "7 responses by status code but ok \\d+ \\+ unexpected_status \\d+ = \\d+ answered",
      ),
    );
    await assert.rejects(Deno.stat(out), Deno.errors.NotFound);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("tailgate merge refuses a shard whose stage rate is not its plan's, naming file and path", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const files = await alteredShards(dir, 1, (shard) => {
      shard.stages[1].toPerSec = 1800;
    });
    const out = join(dir, "merged");
    const outcome = await mergeCommand([...files, "--out", out, "--no-baseline"]);
    assert.equal(outcome.exitCode, 2);
    assert.equal(
      outcome.errors[0],
      `${files[1]}: stages[1].toPerSec (stage "ramp") is 1800, but its plan's ` +
        "plan.load.stages[1].toPerSec is 900: a run's stages are its plan's",
    );
    await assert.rejects(Deno.stat(out), Deno.errors.NotFound);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("tailgate merge names the file, stage and label of a damaged shard histogram, exit 2", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const files = await alteredShards(dir, 0, (shard) => {
      shard.stages[1].labels[1].response.hdr = shard.stages[1].labels[1].response.hdr.slice(0, 16);
    });
    const outcome = await mergeCommand([...files, "--out", join(dir, "merged"), "--no-baseline"]);
    assert.equal(outcome.exitCode, 2);
    assert.match(
      outcome.errors[0],
      new RegExp(
        `^${files[0]}: stages\\[1\\]\\.labels\\[1\\]\\.response\\.hdr ` +
          '\\(stage "ramp", label "GET /b", response time\\) is damaged: truncated histogram',
      ),
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("tailgate merge refuses an out folder that is the baseline folder before writing, naming both", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const files = await writeShards(dir, 2);
    const baselines = join(dir, "baselines");
    await Deno.mkdir(baselines);
    // A history named like a result: a plan called `result`.
    const history = join(baselines, "result.json");
    await Deno.writeTextFile(history, "the history of plan `result`");
    const outcome = await mergeCommand([
      ...files,
      ...["--out", baselines, "--baseline", baselines, "--update-baseline"],
    ]);
    assert.equal(outcome.exitCode, 2);
    assert.match(
      outcome.errors[0],
      new RegExp(`^--out ${baselines} is the baseline folder ${baselines}: results and histories`),
    );
    assert.equal(await Deno.readTextFile(history), "the history of plan `result`");
    assert.deepEqual([...Deno.readDirSync(baselines)].map((e) => e.name), ["result.json"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("tailgate merge judges the implicit error gate of shards whose plan set no error SLO", async () => {
  const dir = await Deno.makeTempDir();
  try {
    // Every 20th request answered 500: 5% failed, and the plan says nothing about errors.
    const noSlo = parseText(SHARD_PLAN.replace(/slo:\n.*\n/, "")).plan!;
    assert.deepEqual(noSlo.slos, []);
    const files = await writeShards(dir, 2, noSlo, 20);
    for (const f of files) {
      const shard = readRunResult(await Deno.readTextFile(f));
      assert.ok(shard.ok && shard.value.verdicts.length === 0, "a shard is not judged");
    }
    const out = join(dir, "merged");
    const outcome = await mergeCommand([...files, "--out", out, "--no-baseline", "--no-color"]);
    assert.equal(outcome.exitCode, 1, outcome.errors.join("\n"));
    const read = readRunResult(await Deno.readTextFile(join(out, "result.json")));
    assert.ok(read.ok);
    assert.deepEqual(read.value.verdicts.map((v) => [v.name, v.status, v.implicit]), [
      ["error_rate <= 1% (implicit)", "fail", true],
    ]);
    // `allow_errors: true` travels in the shards' plan record: the merge judges no such gate.
    const allowedPlan = parseText(SHARD_PLAN.replace(/slo:\n.*\n/, "allow_errors: true\n")).plan!;
    await Deno.mkdir(join(dir, "allowed"));
    const allowedFiles = await writeShards(join(dir, "allowed"), 2, allowedPlan, 20);
    const allowed = await mergeCommand([
      ...allowedFiles,
      "--out",
      join(dir, "allowed-merged"),
      "--no-baseline",
    ]);
    assert.equal(allowed.exitCode, 0, allowed.errors.join("\n"));
    assert.equal(allowed.result?.verdict?.summary, "no gates");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("tailgate merge keeps a shard's fail-fast stop: the merged run fails on it, exit 1", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const reason = "90 requests already failed, of the 3000 planned: `p99 < 80ms` fails whatever " +
      "the rest do";
    const files = await alteredShards(dir, 1, (shard) => {
      shard.run.complete = false;
      shard.run.stopReason = "fail_fast";
      shard.run.stoppedBy = { slo: "p99 < 80ms", line: 13, reason, atMs: 2000 };
    });
    const out = join(dir, "merged");
    const outcome = await mergeCommand([...files, "--out", out, "--no-baseline", "--no-color"]);
    assert.equal(outcome.exitCode, 1, outcome.errors.join("\n"));
    const read = readRunResult(await Deno.readTextFile(join(out, "result.json")));
    assert.ok(read.ok);
    assert.equal(read.value.run.stopReason, "fail_fast");
    assert.deepEqual(read.value.run.stoppedBy?.shard, { index: 1, count: 2 });
    assert.deepEqual(read.value.verdicts.map((v) => [v.name, v.status]), [["p99 < 80ms", "fail"]]);
    assert.equal(read.value.verdict!.status, "fail");
    assert.match(
      read.value.verdict!.reason!,
      /^fail-fast stopped shard 1\/2 [\d.]+ s in: 90 requests/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("tailgate merge --commit files the merged run under that commit in the history", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const files = await writeShards(dir, 2);
    const baselines = join(dir, "baselines");
    const commit = "0123456789abcdef0123456789abcdef01234567";
    const outcome = await mergeCommand([
      ...files,
      ...["--out", join(dir, "out"), "--baseline", baselines, "--update-baseline"],
      ...["--commit", commit.toUpperCase(), "--branch", "main", "--history-runs", "10"],
    ]);
    assert.equal(outcome.exitCode, 0, outcome.errors.join("\n"));
    assert.equal(outcome.result?.environment.gitSha, commit);
    const history = await loadHistory(baselines, shardPlan().name);
    assert.ok(history.ok && history.value);
    const [entry] = history.value.file.history;
    assert.deepEqual([entry.commit, entry.branch], [commit, "main"]);
    const refused = await mergeCommand([...files, "--commit", "not-a-sha"]);
    assert.equal(refused.exitCode, 2);
    assert.match(refused.errors[0], /--commit: `not-a-sha` is not a commit SHA/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
