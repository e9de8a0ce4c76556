/**
 * The regression gate's evidence (docs/gates.md): false alarms against a steady target and
 * detection of a 30% slowdown, with baselines built from earlier runs, at the default settings.
 *
 *   deno run -A bench/gates_study.ts [--runs 10] [--baseline-runs 5] [--quick]
 *
 * It starts the built-in target (fixed delay) as a child process (spawnTarget), runs tailgate as a child
 * process for every run, reads each result.json, and prints a table; every process it starts is
 * stopped by its PID. Loopback only.
 *
 * @module
 */
import { join } from "node:path";
import { parseArgs } from "node:util";
import { spawnTarget } from "../runner/target/spawn_target.ts";

const ROOT = new URL("../", import.meta.url).pathname;
const args = parseArgs({
  args: Deno.args,
  options: {
    runs: { type: "string", default: "10" },
    "baseline-runs": { type: "string", default: "5" },
    quick: { type: "boolean", default: false },
  },
});
const runs = args.values.quick ? 3 : Number(args.values.runs);
const baselineRuns = args.values.quick ? 3 : Number(args.values["baseline-runs"]);
const seconds = args.values.quick ? 3 : 6;

const work = await Deno.makeTempDir({ prefix: "tailgate-gates-study-" });
const planPath = join(work, "plan.yaml");
await Deno.writeTextFile(
  planPath,
  `name: gates-study
target: http://127.0.0.1:1
requests: [{ path: / }]
load:
  connections: 64
  stages:
    - { rate: 2k/s, duration: 1s, warmup: true }
    - { rate: 2k/s, duration: ${seconds}s }
`,
);

interface Outcome {
  exit: number;
  failed: string[];
  inconclusive: number;
  toolLimited: boolean;
  p50Ms: number;
  p99Ms: number;
}

function startTarget(delay: string) {
  return spawnTarget(["--mode", "fixed", "--delay", delay]);
}

async function run(url: string, extra: string[]): Promise<Outcome> {
  const out = join(work, `out-${crypto.randomUUID().slice(0, 8)}`);
  const cmd = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      join(ROOT, "cli.ts"),
      "run",
      planPath,
      "--target",
      url,
      "--out",
      out,
      "--baseline",
      join(work, "baselines"),
      ...extra,
    ],
    stdout: "null",
    stderr: "null",
  }).output();
  const result = JSON.parse(await Deno.readTextFile(join(out, "result.json")));
  const regression = result.verdicts.filter((v: { kind: string }) => v.kind === "regression");
  const stage = result.stages[1];
  return {
    exit: cmd.code,
    failed: regression.filter((v: { status: string }) => v.status === "fail").map((
      v: { name: string },
    ) => v.name),
    inconclusive: regression.filter((v: { status: string }) => v.status === "inconclusive").length,
    toolLimited: result.health.toolLimited,
    p50Ms: stage.response.percentilesUs["50"] / 1000,
    p99Ms: stage.response.percentilesUs["99"] / 1000,
  };
}

/** Runs `runs` comparisons against `url` and returns how many had a regression failure. */
async function series(url: string, title: string): Promise<number> {
  say(title);
  let failing = 0;
  for (let i = 0; i < runs; i++) {
    const o = await run(url, []);
    if (o.failed.length) failing++;
    say(
      `  run ${i + 1}: p50 ${o.p50Ms.toFixed(2)} ms, p99 ${o.p99Ms.toFixed(2)} ms, ` +
        `regression failures: ${o.failed.join(", ") || "none"}${
          o.toolLimited ? " (tool-limited)" : ""
        }`,
    );
  }
  return failing;
}

const lines: string[] = [];
const say = (line: string) => {
  console.log(line);
  lines.push(line);
};
try {
  const steady = await startTarget("10ms");
  say(
    `baseline: ${baselineRuns} runs against a fixed 10 ms target (2k/s, ${seconds}s after a 1 s warmup)`,
  );
  for (let i = 0; i < baselineRuns; i++) {
    const o = await run(steady.url, ["--update-baseline"]);
    say(
      `  baseline run ${i + 1}: p50 ${o.p50Ms.toFixed(2)} ms, p99 ${o.p99Ms.toFixed(2)} ms${
        o.toolLimited ? " (tool-limited: not stored)" : ""
      }`,
    );
  }
  const falseAlarms = await series(
    steady.url,
    `false alarms: ${runs} runs against the same steady target`,
  );
  await steady.stop();
  const slow = await startTarget("13ms");
  const detected = await series(
    slow.url,
    `detection: ${runs} runs against the target 30% slower (fixed 13 ms)`,
  );
  await slow.stop();
  say(`RESULT: false alarms ${falseAlarms} of ${runs}; detected ${detected} of ${runs}`);
} finally {
  await Deno.remove(work, { recursive: true }).catch(() => {});
}
