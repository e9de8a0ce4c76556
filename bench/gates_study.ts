/**
 * The verdicts' evidence (docs/gates.md, "Evidence"): do they hold on a noisy 2-core runner? With a
 * bounded busy loop on the generator's core during every other run (a noisy neighbour):
 *
 * - steady: a history of runs against a steady built-in target (fixed 10 ms), then N runs of a
 *   plan with p50, p99 and p99.9 SLOs and the regression gate: how many end red, how many
 *   inconclusive;
 * - slower: the same plan against the target 20% slower (12 ms): how many end red;
 * - demo: `tailgate demo` N times: every one must fail (exit 1), never invalid;
 * - cases: 5,000 requests of which a fifth take over a second against `p99.9 < 10ms` (fail), and
 *   50 requests against `p99.99 < 10s` (inconclusive, never a pass);
 * - killed: the target killed 1 s into an 8 s run (exit 4, never a pass).
 *
 *   taskset -c 0 deno run -A bench/gates_study.ts [--runs 20] [--history 10] [--only steady,slower,demo,cases,killed] [--quick]
 *
 * The target runs on core 0 (`taskset -c 0`), tailgate on core 1, the busy loop on `--hog-core`
 * (default 0: the core the generator does not use, shared with the server, as a neighbour on a CI
 * runner would; 1 puts it on the generator's own core). Every process it starts is stopped by its
 * PID; the busy loop is also bounded by `timeout` (SIGTERM reaches it through `timeout`).
 * Loopback only.
 *
 * @module
 */
import { join } from "node:path";
import { parseArgs } from "node:util";
import { ENGINE_V8_FLAGS } from "../runner/engine/v8_flags.ts";

const ROOT = new URL("../", import.meta.url).pathname;
const CLI = join(ROOT, "cli.ts");
const args = parseArgs({
  args: Deno.args,
  options: {
    runs: { type: "string", default: "20" },
    history: { type: "string", default: "10" },
    "demo-runs": { type: "string", default: "10" },
    only: { type: "string", default: "steady,slower,demo,cases,killed" },
    "hog-core": { type: "string", default: "0" },
    quick: { type: "boolean", default: false },
  },
});
const hogCore = args.values["hog-core"];
const quick = args.values.quick;
const runs = quick ? 4 : Number(args.values.runs);
const historyRuns = quick ? 3 : Number(args.values.history);
const demoRuns = quick ? 1 : Number(args.values["demo-runs"]);
const only = new Set(args.values.only.split(","));
const seconds = quick ? 3 : 6;
const work = await Deno.makeTempDir({ prefix: "tailgate-gates-study-" });
const live = new Set<Deno.ChildProcess>();

const lines: string[] = [];
const say = (line: string) => {
  console.log(line);
  lines.push(line);
};

async function loadAverage(): Promise<string> {
  return (await Deno.readTextFile("/proc/loadavg")).split(" ").slice(0, 3).join(" ");
}

/** A bounded busy loop pinned to `--hog-core`: the noisy neighbour. */
function startHog(): Deno.ChildProcess {
  const child = new Deno.Command("taskset", {
    args: ["-c", hogCore, "timeout", "300", "sh", "-c", "while :; do :; done"],
    stdout: "null",
    stderr: "null",
  }).spawn();
  live.add(child);
  return child;
}

/**
 * Stops a child and waits for it. SIGTERM: `timeout` relays it to the busy loop it runs (a SIGKILL
 * would orphan the loop), and the target exits on it.
 */
async function stop(child: Deno.ChildProcess): Promise<void> {
  try {
    child.kill("SIGTERM");
  } catch { /* already gone */ }
  await child.status;
  live.delete(child);
}

/** The built-in target on core 0; resolves with its URL once it listens. */
async function startTarget(
  targetArgs: string[],
): Promise<{ url: string; child: Deno.ChildProcess }> {
  const child = new Deno.Command("taskset", {
    args: ["-c", "0", Deno.execPath(), "run", "-A", CLI, "target", ...targetArgs, "--port", "0"],
    stdout: "piped",
    stderr: "null",
  }).spawn();
  live.add(child);
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const { value, done } = await reader.read();
    if (done) break;
    text += value;
    const m = /listening on (http:\/\/\S+?)\/? /.exec(text);
    if (m) {
      reader.releaseLock();
      child.stdout.cancel().catch(() => {});
      return { url: m[1], child };
    }
  }
  await stop(child);
  throw new Error(`the target did not start: ${text}`);
}

interface Outcome {
  exit: number;
  status: string;
  statuses: Record<string, string>;
  toolLimited: boolean;
  hog: boolean;
  p50Ms: number;
  p99Ms: number;
  p999Ms: number;
  why: string[];
}

/** Runs tailgate on core 1 (`cli.ts run`, or `cli.ts demo`), optionally beside the busy loop. */
async function tailgate(cliArgs: string[], hog: boolean, out: string): Promise<Outcome> {
  const neighbour = hog ? startHog() : undefined;
  try {
    const child = new Deno.Command("taskset", {
      args: [
        "-c",
        "1",
        Deno.execPath(),
        "run",
        `--v8-flags=${ENGINE_V8_FLAGS}`,
        "-A",
        CLI,
        ...cliArgs,
      ],
      stdout: "null",
      stderr: "null",
    }).spawn();
    live.add(child);
    const { code } = await child.status;
    live.delete(child);
    const result = JSON.parse(await Deno.readTextFile(join(out, "result.json")));
    const judged = result.stages.filter((s: { warmup: boolean }) => !s.warmup).at(-1);
    const pct = (p: string) => (judged?.response.percentilesUs[p] ?? 0) / 1000;
    const statuses: Record<string, string> = {};
    const why: string[] = [];
    for (const v of result.verdicts) {
      statuses[v.name] = v.status;
      if (v.status !== "pass") why.push(`${v.name}: ${v.status} (${(v.causes ?? []).join("+")})`);
    }
    return {
      exit: code,
      status: result.verdict?.status ?? "?",
      statuses,
      toolLimited: result.health.toolLimited,
      hog,
      p50Ms: pct("50"),
      p99Ms: pct("99"),
      p999Ms: pct("99.9"),
      why,
    };
  } finally {
    if (neighbour) await stop(neighbour);
  }
}

/** `tailgate run PLAN --target URL` into a fresh folder (json only), beside the neighbour when `hog`. */
function runPlan(planPath: string, url: string, hog: boolean, extra: string[]): Promise<Outcome> {
  const out = join(work, `out-${crypto.randomUUID().slice(0, 8)}`);
  return tailgate(
    ["run", planPath, "--target", url, "--out", out, "--report", "json", ...extra],
    hog,
    out,
  );
}

async function plan(name: string, body: string): Promise<string> {
  const path = join(work, `${name}.yaml`);
  await Deno.writeTextFile(path, `name: ${name}\ntarget: http://127.0.0.1:1\n${body}`);
  return path;
}

const STUDY_PLAN = `requests: [{ path: / }]
load:
  connections: 64
  stages:
    - { rate: 2k/s, duration: 1s, warmup: true }
    - { rate: 2k/s, duration: ${seconds}s }
slo:
  - p50 < 15ms
  - p99 < 20ms
  - p99.9 < 30ms
`;

function describe(o: Outcome): string {
  return `${o.status} (exit ${o.exit})${o.hog ? " [busy neighbour]" : ""}, p50 ${
    o.p50Ms.toFixed(2)
  } ms, p99 ${o.p99Ms.toFixed(2)} ms, p99.9 ${o.p999Ms.toFixed(2)} ms${
    o.toolLimited ? ", tool-limited" : ""
  }${o.why.length ? `; ${o.why.join("; ")}` : ""}`;
}

async function series(url: string, planPath: string, title: string, n: number) {
  say(title);
  const tally: Record<string, number> = {};
  for (let i = 0; i < n; i++) {
    const o = await runPlan(planPath, url, i % 2 === 1, ["--baseline", join(work, "baselines")]);
    tally[o.status] = (tally[o.status] ?? 0) + 1;
    say(`  run ${i + 1}: ${describe(o)}`);
  }
  return tally;
}

const results: string[] = [];
try {
  say(
    `# gates study: ${new Date().toISOString()}, load average ${await loadAverage()}, busy ` +
      `neighbour on core ${hogCore} in every other run`,
  );
  const studyPlan = await plan("gates-study", STUDY_PLAN);
  if (only.has("steady") || only.has("slower")) {
    const steady = await startTarget(["--mode", "fixed", "--delay", "10ms"]);
    say(
      `history: runs against a fixed 10 ms target (2k/s, ${seconds}s after a 1 s warmup) until ${historyRuns} are stored`,
    );
    let stored = 0;
    for (let i = 0; stored < historyRuns && i < historyRuns * 2; i++) {
      const o = await runPlan(studyPlan, steady.url, i % 2 === 1, [
        "--baseline",
        join(work, "baselines"),
        "--update-baseline",
      ]);
      if (!o.toolLimited) stored++;
      say(`  history run ${i + 1}: ${describe(o)}${o.toolLimited ? " (not stored)" : ""}`);
    }
    if (only.has("steady")) {
      const t = await series(steady.url, studyPlan, `steady: ${runs} runs, the same target`, runs);
      results.push(
        `steady target, ${runs} runs: ${
          JSON.stringify(t)
        } (goal: at most 1 fail, at most 2 inconclusive)`,
      );
    }
    await stop(steady.child);
    if (only.has("slower")) {
      const slow = await startTarget(["--mode", "fixed", "--delay", "12ms"]);
      const t = await series(
        slow.url,
        studyPlan,
        `slower: ${runs} runs, the target 20% slower (12 ms)`,
        runs,
      );
      results.push(
        `20% slower target, ${runs} runs: ${JSON.stringify(t)} (goal: at least ${runs - 1} fail)`,
      );
      await stop(slow.child);
    }
  }
  if (only.has("demo")) {
    say(`demo: ${demoRuns} runs of \`tailgate demo\``);
    const tally: Record<string, number> = {};
    for (let i = 0; i < demoRuns; i++) {
      const out = join(work, `demo-${i}`);
      const o = await tailgate(["demo", out], i % 2 === 1, out);
      tally[`${o.status}/exit ${o.exit}`] = (tally[`${o.status}/exit ${o.exit}`] ?? 0) + 1;
      say(`  demo ${i + 1}: ${describe(o)}`);
    }
    results.push(`demo, ${demoRuns} runs: ${JSON.stringify(tally)} (goal: all fail, exit 1)`);
  }
  if (only.has("cases")) {
    const bimodal = await startTarget([
      "--mode",
      "bimodal",
      "--frac",
      "0.2",
      "--slow",
      "1100ms",
      "--delay",
      "1ms",
    ]);
    const fifth = await plan(
      "fifth-slow",
      `requests: [{ path: / }]\nload:\n  connections: 64\n  max_connections: 512\n  stages: [{ rate: 1k/s, duration: 5s }]\nslo: [p99.9 < 10ms]\n`,
    );
    const a = await runPlan(fifth, bimodal.url, false, ["--no-baseline"]);
    say(`5,000 requests, a fifth over 1 s, p99.9 < 10ms: ${describe(a)}`);
    results.push(
      `5,000 requests, a fifth over 1 s, p99.9 < 10ms: ${a.status}, exit ${a.exit} (goal: fail)`,
    );
    await stop(bimodal.child);
    const hello = await startTarget(["--mode", "hello"]);
    const fifty = await plan(
      "fifty",
      `requests: [{ path: / }]\nload:\n  connections: 4\n  stages: [{ rate: 10/s, duration: 5s }]\nslo: [p99.99 < 10s]\n`,
    );
    const b = await runPlan(fifty, hello.url, false, ["--no-baseline"]);
    say(`50 requests, p99.99 < 10s: ${describe(b)}`);
    results.push(`50 requests, p99.99 < 10s: ${b.status}, exit ${b.exit} (goal: inconclusive)`);
    await stop(hello.child);
  }
  if (only.has("killed")) {
    const doomed = await startTarget(["--mode", "hello"]);
    const killedPlan = await plan(
      "killed",
      `requests: [{ path: / }]\nload:\n  connections: 16\n  stages: [{ rate: 1k/s, duration: 8s }]\nslo: [p99 < 100ms]\n`,
    );
    // tailgate starts in about half a second: the target dies about 1 s into the schedule.
    const killer = setTimeout(() => stop(doomed.child), 1_500);
    const o = await runPlan(killedPlan, doomed.url, false, ["--no-baseline"]);
    clearTimeout(killer);
    await stop(doomed.child);
    say(`target killed about 1 s into an 8 s run: ${describe(o)}`);
    results.push(`target killed mid-run: ${o.status}, exit ${o.exit} (goal: never pass, exit 4)`);
  }
  say(`## results (load average at the end ${await loadAverage()})`);
  for (const r of results) say(`- ${r}`);
} finally {
  for (const child of [...live]) await stop(child);
  await Deno.remove(work, { recursive: true }).catch(() => {});
}
