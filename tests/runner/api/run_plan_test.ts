import assert from "node:assert/strict";
import { join } from "node:path";
import { runPlan } from "../../../runner/api/run_plan.ts";
import { EXIT_CODES } from "../../../runner/model/exit_codes.ts";
import { parsePlanText } from "../../../runner/plan/mod.ts";
import type { ResolvedPlan } from "../../../runner/plan/mod.ts";
import { loadHistory } from "../../../runner/history/mod.ts";
import { readRunResult } from "../../../runner/result/read_run_result.ts";
import { recordingServer } from "../../_helpers/recording_server.ts";
import { freePort } from "../../_helpers/free_port.ts";

function plan(target: string, extra = ""): ResolvedPlan {
  const parsed = parsePlanText(`name: lifecycle
target: ${target}
requests: [{ path: /x }]
load: { connections: 2, stages: [{ rate: 100/s, duration: 500ms }] }
slo: [p90 < 2s]
${extra}`);
  assert.ok(parsed.plan, parsed.issues.map((i) => i.message).join("\n"));
  return parsed.plan;
}

async function tempDir(): Promise<string & AsyncDisposable> {
  const dir = await Deno.makeTempDir();
  return Object.assign(dir, {
    [Symbol.asyncDispose]: () => Deno.remove(dir, { recursive: true }),
  }) as string & AsyncDisposable;
}

Deno.test("runPlan() measures, judges, writes the reports and files the run, as `tailgate run` does", async () => {
  await using server = recordingServer();
  await using dir = await tempDir();
  const outDir = join(String(dir), "out");
  const baselineDir = join(String(dir), "histories");
  const lines: string[] = [];
  const outcome = await runPlan(plan(server.url), {
    outDir,
    reports: ["md", "junit"],
    baselineDir,
    updateBaseline: true,
    confirmTimes: 0,
    onProgress: (line) => lines.push(line),
  });
  assert.equal(outcome.exitCode, EXIT_CODES.ok, outcome.errors.join("\n"));
  assert.equal(server.requests.length, 50);
  // The document written is the judged one: its verdicts, on disk and returned alike.
  const read = readRunResult(await Deno.readTextFile(join(outDir, "result.json")));
  assert.ok(read.ok);
  assert.equal(read.value.verdicts.length, 1);
  assert.equal(read.value.verdicts[0].status, "pass");
  assert.deepEqual(outcome.result?.verdicts, read.value.verdicts);
  assert.equal(outcome.resultPath, join(outDir, "result.json"));
  await Deno.stat(join(outDir, "summary.md"));
  await Deno.stat(join(outDir, "junit.xml"));
  await assert.rejects(() => Deno.stat(join(outDir, "report.html")), Deno.errors.NotFound);
  // Filed: the history now holds this run.
  const history = await loadHistory(baselineDir, "lifecycle");
  assert.ok(history.ok && history.value);
  assert.equal(history.value.file.runs.length, 1);
  assert.ok(outcome.output?.includes(`wrote ${join(outDir, "result.json")}`));
});

Deno.test("runPlan() sends nothing when the out folder cannot be written: exit 2 naming it", async () => {
  await using server = recordingServer();
  await using dir = await tempDir();
  const file = join(String(dir), "a-file");
  await Deno.writeTextFile(file, "");
  const outcome = await runPlan(plan(server.url), { outDir: join(file, "out") });
  assert.equal(outcome.exitCode, EXIT_CODES.usage);
  assert.match(outcome.errors.join("\n"), /a-file/);
  assert.equal(server.requests.length, 0);
  assert.equal(outcome.result, undefined);
});

Deno.test("runPlan() against a target nobody answers: exit 4, no result written", async () => {
  await using dir = await tempDir();
  const outDir = join(String(dir), "out");
  const outcome = await runPlan(plan(`http://127.0.0.1:${freePort()}`), { outDir });
  assert.equal(outcome.exitCode, EXIT_CODES.unreachable);
  assert.equal(outcome.errors.length, 1);
  await assert.rejects(() => Deno.stat(join(outDir, "result.json")), Deno.errors.NotFound);
});

Deno.test("runPlan() refuses a shard of a plan without a seed or a common start: exit 2", async () => {
  await using server = recordingServer();
  await using dir = await tempDir();
  const outcome = await runPlan(plan(server.url), {
    outDir: join(String(dir), "out"),
    shard: { index: 0, count: 2 },
  });
  // This plan draws nothing per request: its shards need no common seed, and it runs.
  assert.equal(outcome.exitCode, EXIT_CODES.ok, outcome.errors.join("\n"));
  assert.equal(server.requests.length, 25);
  assert.equal(outcome.result?.verdicts.length, 0); // a shard is judged by `tailgate merge`
  const drawing = parsePlanText(`name: drawing
target: ${server.url}
vars: { id: uuid }
requests: [{ path: "/x/{{id}}" }]
load: { connections: 2, stages: [{ rate: 100/s, duration: 500ms }] }
`);
  assert.ok(drawing.plan);
  const before = server.requests.length;
  const refused = await runPlan(drawing.plan, {
    outDir: join(String(dir), "out2"),
    shard: { index: 0, count: 2 },
  });
  assert.equal(refused.exitCode, EXIT_CODES.usage);
  assert.match(refused.errors[0], /--start-at TIME/);
  assert.equal(server.requests.length, before);
});
