/**
 * Evidence for the paired A/B gate (issue 16, written up in docs/gates.md): on this machine, with
 * a CPU hog on one core half the time (a bounded busy loop, switched on and off every 7 s, out of
 * step with the runs; `--hog-core 0` shares the targets' core, `1` tailgate's), how often does
 * each gate call a regression
 *
 * - when base = head (the built-in fixed-delay target at 5 ms, twice): false alarms, and
 * - when head is 10% slower (5.5 ms): detections,
 *
 * through `tailgate ab` (5 rounds, base and head alternating in random order) and, for
 * comparison, through the history gate (`tailgate run --baseline`: a history of 5 runs of base
 * made first, then one head run per trial judged against it).
 *
 *     npx -y deno@2.9.6 run -A bench/ab_study.ts [--trials 20] [--rounds 5] [--hog-core 0|1]
 *
 * Targets run on core 0, tailgate on core 1; only 127.0.0.1 is loaded; every process started
 * here is stopped by its PID (the hog by its own bounded timeout too).
 *
 * @module
 */
import { join } from "node:path";
import { parseArgs } from "node:util";
import { ENGINE_V8_FLAGS } from "../runner/engine/v8_flags.ts";
import { loadAverage, startNeighbour } from "./_neighbour.ts";
import { waitForPort } from "./_wait_port.ts";

const { values } = parseArgs({
  options: {
    trials: { type: "string", default: "20" },
    rounds: { type: "string", default: "5" },
    cases: { type: "string", default: "same,slower" },
    // The core the noisy neighbour takes: 0 shares the targets', 1 tailgate's.
    "hog-core": { type: "string", default: "0" },
    // Record the history gate's base runs with the neighbour away (a quiet day), then judge the
    // trials with it coming and going: the history's conditions differ from the trials'.
    "quiet-history": { type: "boolean", default: false },
    // Only the history gate's trials (the A/B ones measured in another invocation).
    "history-only": { type: "boolean", default: false },
  },
});
const hogCore = values["hog-core"]!;
const trials = Number(values.trials);
const rounds = Number(values.rounds);
const root = new URL("../", import.meta.url).pathname;
const cli = join(root, "cli.ts");
const deno = Deno.execPath();
const dir = await Deno.makeTempDir({ prefix: "tailgate-ab-study-" });

const planPath = join(dir, "plan.yaml");
await Deno.writeTextFile(
  planPath,
  `name: ab-study
target: http://127.0.0.1:1
requests: [{ path: / }]
load:
  connections: 8
  stages:
    - { name: warmup, rate: 200/s, duration: 500ms, warmup: true }
    - { name: steady, rate: 300/s, duration: 2s }
slo: [p99 < 100ms]
regression: { p50: 5%, p90: 5% }
`,
);

const targetCommand = (delay: string, port: number) =>
  `exec taskset -c 0 ${deno} run -A ${cli} target --mode fixed --delay ${delay} --port ${port}`;

// The noisy neighbour: a busy loop on one core, on for 7 s, off for 7 s, until stopped.
const hog = startNeighbour(hogCore);

async function tailgate(args: string[]): Promise<{ code: number; stderr: string }> {
  const out = await new Deno.Command("taskset", {
    args: ["-c", "1", deno, "run", `--v8-flags=${ENGINE_V8_FLAGS}`, "-A", cli, ...args],
    cwd: dir,
    stdout: "null",
    stderr: "piped",
  }).output();
  return { code: out.code, stderr: new TextDecoder().decode(out.stderr) };
}

let port = 19400;
async function abTrial(headDelay: string, trial: number) {
  const base = port++;
  const head = port++;
  const out = join(dir, `ab-${headDelay}-${trial}`);
  const r = await tailgate([
    "ab",
    planPath,
    ...["--base", `http://127.0.0.1:${base}`, "--head", `http://127.0.0.1:${head}`],
    ...["--base-start", targetCommand("5ms", base), "--head-start", targetCommand(headDelay, head)],
    ...["--rounds", String(rounds), "--seed", String(trial + 1), "--out", out],
  ]);
  const text = await Deno.readTextFile(join(out, "ab.json")).catch(() => undefined);
  if (text === undefined) {
    // Recorded, not hidden: a comparison that could not run is neither a pass nor a detection.
    return { code: r.code, status: "error", regressions: [], changes: [r.stderr.slice(-300)] };
  }
  const ab = JSON.parse(text);
  const regressions = ab.comparisons.filter((c: { status: string }) => c.status === "fail")
    .map((c: { metric: string; change: number }) => `${c.metric} ${(c.change * 100).toFixed(1)}%`);
  const changes = ab.comparisons.map((c: { metric: string; change: number; status: string }) =>
    `${c.metric} ${(c.change * 100).toFixed(1)}% ${c.status}`
  );
  return { code: r.code, status: ab.verdict.status, regressions, changes };
}

/** Starts a target by hand (the history gate's runs use running targets), stopped by PID. */
function startTarget(delay: string, port: number): Deno.ChildProcess {
  return new Deno.Command("sh", {
    args: ["-c", targetCommand(delay, port)],
    stdout: "null",
    stderr: "null",
  }).spawn();
}

async function historyTrials(headDelay: string) {
  const baselineDir = join(dir, `history-${headDelay}`);
  const basePort = port++;
  const base = startTarget("5ms", basePort);
  if (values["quiet-history"]) hog.pause();
  try {
    await waitForPort(basePort);
    for (let i = 0; i < 5; i++) {
      await tailgate([
        "run",
        planPath,
        ...["--target", `http://127.0.0.1:${basePort}`, "--baseline", baselineDir],
        ...["--update-baseline", "--out", join(dir, `history-${headDelay}-base-${i}`)],
      ]);
    }
  } finally {
    base.kill("SIGTERM");
    await base.status;
    hog.resume();
  }
  const outcomes = [];
  for (let t = 0; t < trials; t++) {
    const headPort = port++;
    const head = startTarget(headDelay, headPort);
    try {
      await waitForPort(headPort);
      const out = join(dir, `history-${headDelay}-head-${t}`);
      await tailgate([
        "run",
        planPath,
        ...["--target", `http://127.0.0.1:${headPort}`, "--baseline", baselineDir, "--out", out],
      ]);
      const result = JSON.parse(await Deno.readTextFile(join(out, "result.json")));
      const regressions = result.verdicts.filter((v: { kind: string; status: string }) =>
        v.kind === "regression" && v.status === "fail"
      ).map((v: { name: string }) => v.name);
      outcomes.push({ status: result.verdict.status, regressions });
      console.error(
        `history ${headDelay} trial ${t + 1}: ${result.verdict.status} ${regressions.join(", ")}`,
      );
    } finally {
      head.kill("SIGTERM");
      await head.status;
    }
  }
  return outcomes;
}

const report: Record<string, unknown> = {
  trials,
  rounds,
  hogCore,
  quietHistory: values["quiet-history"],
  loadBefore: await loadAverage(),
};
try {
  for (const name of values.cases!.split(",")) {
    const headDelay = name === "same" ? "5ms" : "5.5ms";
    const ab = [];
    for (let t = 0; t < (values["history-only"] ? 0 : trials); t++) {
      const o = await abTrial(headDelay, t);
      ab.push(o);
      console.error(`ab ${name} trial ${t + 1}: ${o.status} ${o.changes.join("; ")}`);
    }
    const history = await historyTrials(headDelay);
    report[name] = {
      headDelay,
      ab: {
        regression: ab.filter((o) => o.regressions.length > 0).length,
        verdicts: ab.map((o) => o.status),
        changes: ab.map((o) => o.changes),
      },
      history: {
        regression: history.filter((o) => o.regressions.length > 0).length,
        verdicts: history.map((o) => o.status),
      },
    };
  }
} finally {
  await hog.stop();
}
report.loadAfter = await loadAverage();
report.hogPeriods = hog.periods();
console.log(JSON.stringify(report, null, 1));
await Deno.remove(dir, { recursive: true });
