/**
 * The action's output fuzzer: random hostile plan file names, plan names, stage names and labels
 * (line breaks, `::` and `##[` marks, the runner's `%` escapes, leading whitespace, Unicode
 * separators, zero-width characters) go through the run step with the real `tailgate` CLI
 * (in-process `main()`, as the child process would run it), and the whole log is read by the GitHub
 * runner's rules (tests/_helpers/runner_commands.ts): nothing tailgate prints may parse as a
 * command, every line the action prints is the one command it means, and the runner executes the
 * same commands as from the action's lines alone. Most cases are refused or invalid plans
 * (milliseconds); a few run for a second against an in-process target. Bounded in count and time;
 * `TAILGATE_FUZZ_SEED` replays a seed, which every failure names.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runPlansMain, type TailgateRunner } from "../../../ci/action/run_plans.ts";
import { main } from "../../../cli.ts";
import { startTarget } from "../../../mod.ts";
import { printable } from "../../../runner/plan/printable.ts";
import { hostileText, yamlQuoted } from "../../_helpers/hostile_text.ts";
import {
  commandLines,
  executedCommands,
  runnerCommand,
  runnerLines,
} from "../../_helpers/runner_commands.ts";
import { mulberry32 } from "../../_helpers/seeded_random.ts";

const MAX_CASES = 60;
const MAX_REAL_RUNS = 2;
const MAX_TOTAL_MS = 30_000;
const ACTION_COMMANDS = [
  "group",
  "endgroup",
  "stop-commands",
  "resume",
  "error",
  "warning",
  "notice",
];

/** One printed line and who printed it. */
interface Printed {
  by: "action" | "tailgate";
  text: string;
}

/** `tailgate` run in-process in `cwd`, its lines logged between the action's. */
function inProcess(log: Printed[]): TailgateRunner {
  return async (args, cwd) => {
    const before = Deno.cwd();
    const stderr: string[] = [];
    Deno.chdir(cwd);
    try {
      const code = await main([...args], {
        stdout: (text) => log.push({ by: "tailgate", text }),
        stderr: (text) => (log.push({ by: "tailgate", text }), stderr.push(text)),
      });
      return { code, stderr: stderr.join("\n") + "\n" };
    } finally {
      Deno.chdir(before);
    }
  };
}

/** A plan with hostile names: valid (a short run whose gate fails) or with a located error. */
function planText(target: string, names: string[], valid: boolean): string {
  const [plan, stage, label, key] = names.map(yamlQuoted);
  return `name: ${plan}
target: ${target}
requests: [{ name: ${label}, path: / }]
load:
  connections: 2
  stages:
    - { name: ${stage}, rate: 20/s, duration: ${valid ? "1100ms" : "1sec"} }
slo:
  - p50 < 2us
${valid ? "" : `${key}: 1\n`}`;
}

/** Checks one case's log by the runner's rules; `where` names the case in every failure. */
function checkLog(log: Printed[], file: string, github: boolean, where: string): void {
  const all = log.map((l) => l.text);
  const tailgate = log.filter((l) => l.by === "tailgate").map((l) => l.text);
  const action = log.filter((l) => l.by === "action").map((l) => l.text);
  assert.deepEqual(commandLines(tailgate), [], `tailgate printed a command at ${where}`);
  if (!github) {
    assert.deepEqual(commandLines(all), [], `a command outside GitHub at ${where}`);
    return;
  }
  for (const line of action) {
    assert.equal(runnerLines(line).length, 1, `an action line breaks at ${where}: ${line}`);
    const command = runnerCommand(line);
    assert.equal(command?.form ?? "v2", "v2", `a legacy command at ${where}: ${line}`);
    assert.equal(line.startsWith("::"), command !== undefined, `at ${where}: ${line}`);
  }
  const executed = executedCommands(all);
  assert.deepEqual(executed, executedCommands(action), `tailgate's lines ran commands at ${where}`);
  for (const c of executed) {
    assert.ok(ACTION_COMMANDS.includes(c.command), `${c.command} at ${where}`);
    if (c.command === "stop-commands") assert.match(c.data, /^[0-9a-f]{32}$/, where);
    if (c.command === "group") assert.equal(c.data, `tailgate run ${printable(file)}`, where);
    if (c.properties.file !== undefined) assert.equal(c.properties.file, file, where);
  }
  const count = (name: string) => executed.filter((c) => c.command === name).length;
  assert.equal(count("stop-commands"), count("resume"), `commands left off at ${where}`);
}

Deno.test("hostile file, plan, stage and label names leave the runner only the action's own commands", async () => {
  await using target = await startTarget({ mode: "fixed", delayMs: 1, port: 0 });
  const seed = Number(Deno.env.get("TAILGATE_FUZZ_SEED") ?? 20261126);
  const next = mulberry32(seed);
  const startedMs = performance.now();
  let cases = 0;
  let realRuns = 0;
  for (; cases < MAX_CASES && performance.now() - startedMs < MAX_TOTAL_MS; cases++) {
    // Every fourth name may hold control characters: the action refuses it before any run.
    const refused = cases % 4 === 3;
    const file = `plans/p${hostileText(next, !refused)}.yaml`;
    const valid = !refused && realRuns < MAX_REAL_RUNS && cases % 10 === 0;
    // A name must not be blank: one that runs ends in a letter.
    const names = [0, 1, 2, 3].map(() => `${hostileText(next)}${valid ? "x" : ""}`);
    if (valid) realRuns++;
    const github = cases % 5 !== 4;
    const where = `seed ${seed}, case ${cases}: ${JSON.stringify({ file, names, valid, github })}`;
    const dir = await Deno.makeTempDir({ prefix: "tailgate-fuzz-" });
    try {
      await Deno.mkdir(join(dir, "plans"));
      await Deno.writeTextFile(join(dir, file), planText(target.url, names, valid));
      const log: Printed[] = [];
      await runPlansMain(
        {
          ...(github ? { GITHUB_ACTIONS: "true" } : {}),
          GITHUB_WORKSPACE: dir,
          TAILGATE_PLANS: "plans/*.yaml",
          TAILGATE_BASELINE: "none",
          TAILGATE_REPORT: "json,md",
        },
        (text) => log.push({ by: "action", text }),
        { cwd: dir, run: inProcess(log) },
      );
      checkLog(log, file, github, where);
      if (valid) {
        const out = join(dir, "tailgate-out");
        const slug = [...Deno.readDirSync(out)].find((e) => e.isDirectory)?.name ?? "";
        const text = await Deno.readTextFile(join(out, slug, "result.json")).catch(() => "{}");
        const printed = log.map((l) => l.text).join("\n");
        assert.equal(JSON.parse(text).plan?.name, names[0], `ran at ${where}:\n${printed}`);
      }
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  }
  assert.ok(cases >= 20, `only ${cases} cases in ${MAX_TOTAL_MS} ms`);
  assert.equal(realRuns, MAX_REAL_RUNS);
});
