/**
 * The truth table: tailgate beside its peers (oha, wrk2, wrk) at the same rate, against the same
 * servers, read the same way. Two scenarios:
 *
 * 1. The C server (bench/servers/hello_epoll.c, built with `cc -O2`) at 5k, 20k and 50k/s over 50
 *    connections. Nothing is known exactly here, so each tool's p99 and p99.9 are set against
 *    oha's in the same round, beside its CPU per request and the rate it achieved.
 * 2. The built-in target (`tailgate target`) in stall, bimodal and first-n modes at 1k/s, whose
 *    latency distribution follows from its flags: each tool's percentiles against that truth.
 *
 * Servers run on core 0, every generator on core 1 under /usr/bin/time. Run it from the repository
 * root, on core 0 itself so its own work stays off the generator's core:
 *
 *     taskset -c 0 npx -y deno@2.9.6 run -A bench/truth_table.ts [--quick] [--rounds N] [--out DIR] [--md FILE]
 *
 * Options: --rounds 3 (1 with --quick), --quick (5 s measured runs: a smoke test), --out DIR (raw
 * outputs; default a temporary directory), --md FILE (also write the Markdown there), --port 18180
 * (the C server; every target takes a free port). The Markdown goes to stdout, progress to stderr.
 * A peer that is not installed is skipped with a note. Only ever loads 127.0.0.1; kills every
 * process it started by PID, also on errors, Ctrl-C and SIGTERM, and each run after a hard limit.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { ENGINE_V8_FLAGS } from "../runner/engine/v8_flags.ts";
import type { RunResult } from "../runner/model/run_result.ts";
import {
  childOf,
  decode,
  kill,
  killLive,
  live,
  loadAverage,
  median,
  sleep,
  startCServer,
} from "./_harness.ts";

const { values } = parseArgs({
  options: {
    quick: { type: "boolean", default: false },
    rounds: { type: "string" },
    out: { type: "string" },
    md: { type: "string" },
    port: { type: "string", default: "18180" },
  },
});
const quick = values.quick;
const rounds = Number(values.rounds ?? (quick ? 1 : 3));
/** Every tool's measured run length; tailgate runs a warmup stage of `warmupS` before it. */
const measuredS = quick ? 5 : 20;
const warmupS = quick ? 1 : 2;
const C_RATES_PER_SEC = [5_000, 20_000, 50_000];
const C_CONNECTIONS = 50;
const TRUTH_RATE_PER_SEC = 1_000;
/** wrk2 resets its histograms 10 s (CALIBRATE_DELAY_MS) plus 5 ms per connection after start. */
const WRK2_CALIBRATION_S = 10;
const WRK2_STAGGER_S_PER_CONNECTION = 0.005;
const CLI = new URL("../cli.ts", import.meta.url).pathname;
const OHA = `${Deno.env.get("HOME")}/.cargo/bin/oha`;
const WRK2 = "/tmp/wrk2/wrk";
const WRK = "/usr/bin/wrk";
const dir = values.out ?? await Deno.makeTempDir({ prefix: "tailgate-truth-" });
await Deno.mkdir(dir, { recursive: true });
const progress = (line: string) => console.error(`# ${line}`);

/** Percentiles every tool reports, with the quantile each stands for (max = 1). */
const PERCENTILES = [
  ["p50", 0.5],
  ["p90", 0.9],
  ["p99", 0.99],
  ["p99.9", 0.999],
  ["max", 1],
] as const;
type Percentile = typeof PERCENTILES[number][0];
type LatencyUs = Record<Percentile, number>;

/** One tool's run, read the same way for every tool. */
interface Measurement {
  tool: string;
  round: number;
  latencyUs: LatencyUs;
  /** Measured requests with an outcome (warmup and wrk2's calibration excluded). */
  completed: number;
  /** Requests the schedule called for in the measured window; NaN for closed-loop wrk. */
  intended: number;
  errors: number;
  /** Requests the server answered before the measured ones (warmup, calibration). */
  answeredBefore: number;
  /** Measured completions per second of the measured window (to the last completion). */
  achievedPerSec: number;
  /** The whole process's user + system CPU over every request it completed. */
  cpuUsPerRequest: number;
  loadAvg: [string, string];
  /** first-n: the target's --n for this run. */
  firstN?: number;
  note?: string;
}

/** What a tool is asked to do. */
interface Job {
  tag: string;
  url: string;
  ratePerSec: number;
  connections: number;
  round: number;
}

/** A peer (or tailgate): how to run it, and which of the server's answers it will measure. */
interface Tool {
  name: string;
  version: string;
  run(job: Job): Promise<Measurement>;
  plannedSpan(job: Job): Span;
}

/** The target's answers a tool measured: numbers `before` .. `before + count - 1`. */
interface Span {
  before: number;
  count: number;
}

/** A server and rate every tool runs against in turn. */
interface Case {
  id: string;
  title: string;
  ratePerSec: number;
  connections: number;
  /** The built-in target's flags and its analytic truth; absent for the C server. */
  target?: {
    flags: string[];
    truthMs(q: number, span: Span, firstN?: number): number;
    /** first-n: --n for a tool expected to measure `span`. */
    firstNFor?(span: Span): number;
    truthText: string;
  };
}

/**
 * stall truth: a share stall/period of arrivals lands in the frozen window and waits uniformly
 * 0..stall for it to end, so P(latency − delay > x) = (stall − x)/period for 0 < x < stall.
 */
function stallTruthMs(q: number, stallMs: number, periodMs: number, delayMs: number): number {
  return delayMs + Math.max(0, stallMs - (1 - q) * periodMs);
}

/** bimodal truth: quantiles up to 1 − frac are the fast delay, above it the slow one. */
function bimodalTruthMs(q: number, frac: number, delayMs: number, slowMs: number): number {
  const lowShare = delayMs <= slowMs ? 1 - frac : frac;
  return q <= lowShare ? Math.min(delayMs, slowMs) : Math.max(delayMs, slowMs);
}

/**
 * first-n truth for the answers `span` of a target whose first `n` answers take `delayMs` and all
 * later ones `slowMs`: clamp(n − before, 0, count) of them are fast, the rest slow.
 */
function firstNTruthMs(q: number, n: number, span: Span, delayMs: number, slowMs: number): number {
  const fastCount = Math.min(span.count, Math.max(0, n - span.before));
  const rank = Math.max(1, Math.ceil(q * span.count));
  const lowCount = delayMs <= slowMs ? fastCount : span.count - fastCount;
  return rank <= lowCount ? Math.min(delayMs, slowMs) : Math.max(delayMs, slowMs);
}

const STALL = { stallMs: 200, periodMs: 1_000, delayMs: 1 };
const BIMODAL = { frac: 0.05, slowMs: 40, delayMs: 1 };
const FIRST_N = { fastShare: 0.95, slowMs: 20, delayMs: 1 };

const CASES: Case[] = [
  ...C_RATES_PER_SEC.map((ratePerSec) => ({
    id: `c-${ratePerSec / 1000}k`,
    title: `C server at ${ratePerSec / 1000}k/s`,
    ratePerSec,
    connections: C_CONNECTIONS,
  })),
  {
    id: "stall",
    title: `stall ${STALL.stallMs} ms every ${STALL.periodMs} ms, delay ${STALL.delayMs} ms`,
    ratePerSec: TRUTH_RATE_PER_SEC,
    // Enough that every request of a stall is in flight at the server: no client-side queue.
    connections: 400,
    target: {
      flags: ["--mode", "stall", "--stall", `${STALL.stallMs}ms`, "--period", `${STALL.periodMs}ms`]
        .concat(["--delay", `${STALL.delayMs}ms`]),
      truthMs: (q) => stallTruthMs(q, STALL.stallMs, STALL.periodMs, STALL.delayMs),
      truthText: `delay + max(0, stall − (1 − q)·period): a ${
        STALL.stallMs / STALL.periodMs * 100
      }% share of arrivals waits uniformly 0..${STALL.stallMs} ms`,
    },
  },
  {
    id: "bimodal",
    title: `bimodal ${BIMODAL.frac * 100}% at ${BIMODAL.slowMs} ms, else ${BIMODAL.delayMs} ms`,
    ratePerSec: TRUTH_RATE_PER_SEC,
    connections: C_CONNECTIONS,
    target: {
      flags: ["--mode", "bimodal", "--frac", String(BIMODAL.frac), "--slow", `${BIMODAL.slowMs}ms`]
        .concat(["--delay", `${BIMODAL.delayMs}ms`]),
      truthMs: (q) => bimodalTruthMs(q, BIMODAL.frac, BIMODAL.delayMs, BIMODAL.slowMs),
      truthText: `quantiles up to ${100 - BIMODAL.frac * 100}% are --delay, above it --slow ` +
        `(the target's even pattern makes exactly one answer in ${1 / BIMODAL.frac} slow)`,
    },
  },
  {
    id: "first-n",
    title: `first-n: ${FIRST_N.delayMs} ms, then ${FIRST_N.slowMs} ms`,
    ratePerSec: TRUTH_RATE_PER_SEC,
    connections: C_CONNECTIONS,
    target: {
      flags: ["--mode", "first-n", "--delay", `${FIRST_N.delayMs}ms`]
        .concat(["--slow", `${FIRST_N.slowMs}ms`]),
      truthMs: (q, span, n) => firstNTruthMs(q, n!, span, FIRST_N.delayMs, FIRST_N.slowMs),
      firstNFor: (span) => span.before + Math.round(FIRST_N.fastShare * span.count),
      truthText: `the target is restarted for every run and --n set to the answers the tool ` +
        `sends before measuring + ${FIRST_N.fastShare * 100}% of its planned measured ` +
        `requests; the truth then comes from the counts it actually reports: of its measured ` +
        `answers number b..b+N−1, clamp(n − b, 0, N) are fast`,
    },
  },
];

/** A generator's output, its whole-process CPU and the load average around it. */
interface ProcessRun {
  stdout: string;
  stderr: string;
  code: number;
  cpuS: number;
  loadAvg: [string, string];
}

/**
 * Runs `args` on core 1 under /usr/bin/time, killed after `limitS`; writes its output to
 * `rawPath`.
 */
async function runPinned(args: string[], limitS: number, rawPath: string): Promise<ProcessRun> {
  const timeFile = `${rawPath}.time`;
  const loadStart = loadAverage();
  const wrapper = new Deno.Command("/usr/bin/time", {
    args: ["-o", timeFile, "-f", "%U %S", "taskset", "-c", "1", ...args],
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  live.add(wrapper.pid);
  const output = wrapper.output();
  const pid = await childOf(wrapper.pid).catch(() => wrapper.pid);
  live.add(pid);
  const timer = setTimeout(() => kill(pid, "SIGKILL"), limitS * 1000);
  const out = await output.finally(() => clearTimeout(timer));
  live.delete(pid);
  live.delete(wrapper.pid);
  const [stdout, stderr] = [decode(out.stdout), decode(out.stderr)];
  await Deno.writeTextFile(
    rawPath,
    `$ ${args.join(" ")}\n# exit ${out.code}\n${stdout}\n# stderr\n${stderr}`,
  );
  const times = (await Deno.readTextFile(timeFile).catch(() => "")).trim().split("\n").at(-1)!;
  const cpuS = times ? times.split(" ").slice(0, 2).reduce((a, t) => a + Number(t), 0) : NaN;
  return { stdout, stderr, code: out.code, cpuS, loadAvg: [loadStart, loadAverage()] };
}

/** tailgate: a warmup stage, then the measured stage, both at the job's rate. */
function tailgateTool(version: string): Tool {
  return {
    name: "tailgate",
    version,
    plannedSpan: (job) => ({
      before: job.ratePerSec * warmupS,
      count: job.ratePerSec * measuredS,
    }),
    async run(job) {
      const base = `${dir}/${job.tag}-tailgate`;
      const plan = [
        `name: truth-table-${job.tag}`,
        `target: ${job.url}`,
        "defaults: { timeout: 60s }",
        "requests: [{ path: / }]",
        "load:",
        `  connections: ${job.connections}`,
        `  max_connections: ${job.connections}`,
        "  stages:",
        `    - { rate: ${job.ratePerSec}/s, duration: ${warmupS}s, warmup: true }`,
        `    - { rate: ${job.ratePerSec}/s, duration: ${measuredS}s }`,
      ];
      await Deno.writeTextFile(`${base}.yaml`, plan.join("\n") + "\n");
      const args = [
        Deno.execPath(),
        "run",
        `--v8-flags=${ENGINE_V8_FLAGS}`,
        "-A",
        CLI,
        "run",
        `${base}.yaml`,
        "--out",
        base,
      ];
      const p = await runPinned(
        [...args, "--report", "json", "--no-baseline"],
        warmupS + measuredS + 60,
        `${base}.log`,
      );
      if (p.code !== 0 && p.code !== 3) {
        throw new Error(`tailgate exited with ${p.code}: ${p.stderr.slice(-300)}`);
      }
      const result: RunResult = JSON.parse(await Deno.readTextFile(`${base}/result.json`));
      const stage = result.stages.findLast((s) => !s.warmup)!;
      const pct = stage.response.percentilesUs;
      const sum = (xs: Record<string, number | undefined>) =>
        Object.values(xs).reduce((a: number, b) => a + (b ?? 0), 0);
      const h = result.health;
      return {
        tool: "tailgate",
        round: job.round,
        latencyUs: {
          p50: pct["50"],
          p90: pct["90"],
          p99: pct["99"],
          "p99.9": pct["99.9"],
          max: stage.response.maxUs,
        },
        completed: stage.counts.completed,
        intended: stage.counts.scheduled,
        errors: sum(stage.counts.errors),
        answeredBefore: result.stages.filter((s) => s.warmup).reduce(
          (a, s) => a + s.counts.sent,
          0,
        ),
        // From the stage's start to the last completion: a backlog drained late lowers it.
        achievedPerSec: stage.counts.completed / ((result.run.durationMs - stage.startMs) / 1000),
        cpuUsPerRequest: p.cpuS * 1e6 / result.totals.counts.completed,
        loadAvg: p.loadAvg,
        note: `health: cpu.perRequestUs ${h.cpu.perRequestUs}, toolLimited ${h.toolLimited}` +
          (h.toolLimited ? ` (${h.reasons.join("; ")})` : ""),
      };
    },
  };
}

/** oha: `-z` the measured length at `-q` the rate, latency from the intended send time. */
function ohaTool(version: string): Tool {
  return {
    name: "oha",
    version,
    plannedSpan: (job) => ({ before: 0, count: job.ratePerSec * measuredS }),
    async run(job) {
      const p = await runPinned(
        [OHA, "-z", `${measuredS}s`, "-q", String(job.ratePerSec), "-c", String(job.connections)]
          .concat(["--latency-correction", "--no-tui", "--output-format", "json", job.url]),
        measuredS + 30,
        `${dir}/${job.tag}-oha.log`,
      );
      const o = JSON.parse(p.stdout);
      const completed = Object.values(o.statusCodeDistribution as Record<string, number>)
        .reduce((a, b) => a + b, 0);
      const errorsByKind = Object.entries(o.errorDistribution as Record<string, number>);
      const aborted = errorsByKind.filter(([k]) => /deadline/i.test(k)).reduce(
        (a, e) => a + e[1],
        0,
      );
      const errors = errorsByKind.reduce((a, e) => a + e[1], 0) - aborted;
      const us = (s: number) => Math.round(s * 1e6);
      const lp = o.latencyPercentiles;
      return {
        tool: "oha",
        round: job.round,
        latencyUs: {
          p50: us(lp.p50),
          p90: us(lp.p90),
          p99: us(lp.p99),
          "p99.9": us(lp["p99.9"]),
          max: us(o.summary.slowest),
        },
        completed,
        intended: job.ratePerSec * measuredS,
        errors,
        answeredBefore: 0,
        achievedPerSec: completed / o.summary.total,
        cpuUsPerRequest: p.cpuS * 1e6 / completed,
        loadAvg: p.loadAvg,
        note: aborted ? `${aborted} in flight aborted at the deadline` : undefined,
      };
    },
  };
}

/** A wrk-style duration (`1.06ms`, `500.00us`, `1.00s`, `2.00m`) in µs. */
function wrkTimeUs(value: string, unit: string): number {
  return Math.round(Number(value) * { us: 1, ms: 1e3, s: 1e6, m: 60e6, h: 3600e6 }[unit]!);
}

/** wrk2's -d: `measuredS` plus its calibration, rounded up to whole seconds (it takes no less). */
function wrk2DurationS(connections: number): number {
  return measuredS + Math.ceil(WRK2_CALIBRATION_S + connections * WRK2_STAGGER_S_PER_CONNECTION);
}

/** What wrk2's histogram covers: from the calibration to the end, at least `measuredS`. */
function wrk2WindowS(connections: number): number {
  return wrk2DurationS(connections) - WRK2_CALIBRATION_S -
    connections * WRK2_STAGGER_S_PER_CONNECTION;
}

/** wrk2: corrected latency from its HdrHistogram, after its own calibration period. */
function wrk2Tool(version: string): Tool {
  return {
    name: "wrk2",
    version,
    // Connections start 5 ms apart, each at its share of the rate, until the calibration.
    plannedSpan: (job) => ({
      before: Math.round(
        job.ratePerSec * (WRK2_CALIBRATION_S + job.connections * WRK2_STAGGER_S_PER_CONNECTION / 2),
      ),
      count: Math.round(job.ratePerSec * wrk2WindowS(job.connections)),
    }),
    async run(job) {
      const durationS = wrk2DurationS(job.connections);
      const p = await runPinned(
        [WRK2, "-t1", `-c${job.connections}`, `-d${durationS}s`, `-R${job.ratePerSec}`]
          .concat(["--latency", job.url]),
        durationS + 30,
        `${dir}/${job.tag}-wrk2.log`,
      );
      const section = p.stdout.split("Recorded Latency)")[1]?.split("\n\n")[0] ?? "";
      const at = new Map(
        [...section.matchAll(/^\s*([\d.]+)%\s+([\d.]+)(us|ms|s|m|h)\s*$/gm)]
          .map((m) => [Number(m[1]), wrkTimeUs(m[2], m[3])]),
      );
      const footer = /#\[Max\s*=\s*([\d.]+),\s*Total count\s*=\s*(\d+)\]/.exec(p.stdout);
      const total = /(\d+) requests in/.exec(p.stdout);
      if (!footer || !total) throw new Error(`wrk2 output not understood: ${p.stdout.slice(-300)}`);
      const completed = Number(footer[2]);
      const windowS = wrk2WindowS(job.connections);
      const socketErrors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/
        .exec(p.stdout)?.slice(1).reduce((a, b) => a + Number(b), 0) ?? 0;
      const statusErrors = Number(/Non-2xx or 3xx responses: (\d+)/.exec(p.stdout)?.[1] ?? 0);
      return {
        tool: "wrk2",
        round: job.round,
        latencyUs: {
          p50: at.get(50)!,
          p90: at.get(90)!,
          p99: at.get(99)!,
          "p99.9": at.get(99.9)!,
          max: Math.round(Number(footer[1]) * 1000),
        },
        completed,
        intended: Math.round(job.ratePerSec * windowS),
        errors: socketErrors + statusErrors,
        answeredBefore: Number(total[1]) - completed,
        achievedPerSec: completed / windowS,
        cpuUsPerRequest: p.cpuS * 1e6 / Number(total[1]),
        loadAvg: p.loadAvg,
      };
    },
  };
}

/** wrk's `done` callback: percentiles, max and mean (µs), requests, duration (µs), errors. */
const WRK_LUA = `done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format("truth-table %d %d %d %d %d %.0f %d %d %d\\n",
    latency:percentile(50), latency:percentile(90), latency:percentile(99),
    latency:percentile(99.9), latency.max, latency.mean, summary.requests, summary.duration,
    e.connect + e.read + e.write + e.status + e.timeout))
end
`;

/** wrk: closed loop (each connection sends when its last answer came), so no rate is held. */
function wrkTool(version: string): Tool {
  return {
    name: "wrk",
    version,
    plannedSpan: (job) => ({ before: 0, count: job.ratePerSec * measuredS }),
    async run(job) {
      const script = `${dir}/truth_table_done.lua`;
      await Deno.writeTextFile(script, WRK_LUA);
      const p = await runPinned(
        [WRK, "-t1", `-c${job.connections}`, `-d${measuredS}s`, "--latency", "-s", script, job.url],
        measuredS + 30,
        `${dir}/${job.tag}-wrk.log`,
      );
      const m = /truth-table ([\d ]+)/.exec(p.stdout);
      if (!m) throw new Error(`wrk output not understood: ${p.stdout.slice(-300)}`);
      const [p50, p90, p99, p999, max, meanUs, requests, durationUs, errors] = m[1].split(" ")
        .map(Number);
      const achievedPerSec = requests / (durationUs / 1e6);
      // Little's law: with every connection always busy, the mean latency is at most
      // connections ÷ throughput; a larger mean means wrk's latency sample is not every request.
      const littleBoundUs = job.connections / achievedPerSec * 1e6;
      return {
        tool: "wrk",
        round: job.round,
        latencyUs: { p50, p90, p99, "p99.9": p999, max },
        completed: requests,
        intended: NaN,
        errors,
        answeredBefore: 0,
        achievedPerSec,
        cpuUsPerRequest: p.cpuS * 1e6 / requests,
        loadAvg: p.loadAvg,
        note: "closed loop, rate not held" +
          (meanUs > 1.1 * littleBoundUs
            ? `; its mean ${num(meanUs / 1000, 2)} ms exceeds connections ÷ rate = ` +
              `${num(littleBoundUs / 1000, 2)} ms (Little's law): its latency sample is biased`
            : ""),
      };
    },
  };
}

/** The first non-empty line a command prints for `args`, or undefined when it cannot run. */
async function firstLine(command: string, args: string[]): Promise<string | undefined> {
  try {
    const o = await new Deno.Command(command, { args, stdout: "piped", stderr: "piped" }).output();
    return (decode(o.stdout) + decode(o.stderr)).split("\n").find((l) => l.trim())?.trim();
  } catch {
    return undefined;
  }
}

/** Every tool that can run here, in round-1 order, and a note for each one missing. */
async function findTools(): Promise<{ tools: Tool[]; missing: string[] }> {
  const head = await firstLine(
    "git",
    ["-C", new URL("..", import.meta.url).pathname, "log", "-1"]
      .concat(["--format=%h"]),
  );
  const dirty = await firstLine(
    "git",
    ["-C", new URL("..", import.meta.url).pathname, "status"]
      .concat(["--porcelain", "--untracked-files=no"]),
  );
  const tools = [tailgateTool(`${head ?? "?"}${dirty ? " + uncommitted changes" : ""}`)];
  const missing: string[] = [];
  const peers: [string, string, string[], (v: string) => Tool][] = [
    ["oha", OHA, ["--version"], ohaTool],
    ["wrk2", WRK2, ["--version"], wrk2Tool],
    ["wrk", WRK, ["--version"], wrkTool],
  ];
  for (const [name, path, args, make] of peers) {
    const version = await firstLine(path, args);
    if (version === undefined) missing.push(`${name} (${path}) is not installed: skipped`);
    else {
      const commit = name === "wrk2"
        ? await firstLine(
          "git",
          ["-C", "/tmp/wrk2", "log", "-1"]
            .concat(["--format=%h %cs"]),
        )
        : undefined;
      const short = version.split(" Copyright")[0];
      tools.push(make(commit ? `${short} (built from source, commit ${commit})` : short));
    }
  }
  return { tools, missing };
}

/** Starts `tailgate target` on core 0 and a free port; resolves with its URL once it listens. */
async function startTarget(flags: string[]): Promise<{ proc: Deno.ChildProcess; url: string }> {
  const proc = new Deno.Command("taskset", {
    args: ["-c", "0", Deno.execPath(), "run", "-A", CLI, "target", "--port", "0", ...flags],
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  live.add(proc.pid);
  const reader = proc.stdout.getReader();
  const timer = setTimeout(() => kill(proc.pid, "SIGKILL"), 30_000);
  let text = "";
  let url: string | undefined;
  while (url === undefined) {
    const { value, done } = await reader.read();
    if (done) {
      clearTimeout(timer);
      throw new Error(`tailgate target ${flags.join(" ")} did not start: ${text}`);
    }
    text += decode(value);
    url = /listening on (http:\/\/127\.0\.0\.1:\d+\/)/.exec(text)?.[1];
  }
  clearTimeout(timer);
  void (async () => { // keep draining its stdout
    try {
      while (!(await reader.read()).done) { /* nothing to keep */ }
    } catch { /* closed */ }
  })();
  return { proc, url };
}

/** SIGTERM, then SIGKILL after 5 s; waits for the exit. */
async function stopProcess(proc: Deno.ChildProcess): Promise<void> {
  kill(proc.pid, "SIGTERM");
  const exited = await Promise.race([proc.status.then(() => true), sleep(5000).then(() => false)]);
  if (!exited) kill(proc.pid, "SIGKILL");
  await proc.status;
  live.delete(proc.pid);
}

/** Runs every tool once against `c`, in an order that reverses every other round. */
async function runRound(c: Case, round: number, tools: Tool[], cUrl: string) {
  const order = round % 2 === 1 ? tools : [...tools].reverse();
  const measurements: Measurement[] = [];
  for (const tool of order) {
    const job: Job = {
      tag: `${c.id}-r${round}`,
      url: cUrl,
      ratePerSec: c.ratePerSec,
      connections: c.connections,
      round,
    };
    const firstN = c.target?.firstNFor?.(tool.plannedSpan(job));
    let target: { proc: Deno.ChildProcess; url: string } | undefined;
    try {
      if (c.target) {
        target = await startTarget([...c.target.flags, ...(firstN ? ["--n", String(firstN)] : [])]);
        job.url = target.url;
      }
      const m = await tool.run(job);
      measurements.push({ ...m, firstN });
      progress(
        `${c.id} round ${round} ${tool.name}: p99 ${m.latencyUs.p99} µs, ${m.completed} ` +
          `requests, ${m.achievedPerSec.toFixed(0)}/s, load ${m.loadAvg.join(" → ")}`,
      );
    } catch (e) {
      progress(`${c.id} round ${round} ${tool.name} failed: ${(e as Error).message}`);
      measurements.push(failed(tool.name, round, (e as Error).message));
    } finally {
      if (target) await stopProcess(target.proc);
    }
  }
  return { order: order.map((t) => t.name), measurements };
}

function failed(tool: string, round: number, note: string): Measurement {
  const nan = { p50: NaN, p90: NaN, p99: NaN, "p99.9": NaN, max: NaN };
  return {
    tool,
    round,
    latencyUs: nan,
    completed: NaN,
    intended: NaN,
    errors: NaN,
    answeredBefore: NaN,
    achievedPerSec: NaN,
    cpuUsPerRequest: NaN,
    loadAvg: ["?", "?"],
    note: `failed: ${note.split("\n")[0].slice(0, 200)}`,
  };
}

/** The truth (ms) of every percentile for one measurement of a target case. */
function truthOf(c: Case, m: Measurement): Record<Percentile, number> {
  const span = { before: m.answeredBefore, count: m.completed };
  return Object.fromEntries(
    PERCENTILES.map(([name, q]) => [name, c.target!.truthMs(q, span, m.firstN)]),
  ) as Record<Percentile, number>;
}

const num = (x: number, digits = 0) =>
  Number.isFinite(x)
    ? x.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits })
    : "—";
const finite = (xs: number[]) => xs.filter(Number.isFinite);
const min = (xs: number[]) => finite(xs).length ? Math.min(...finite(xs)) : NaN;
const max = (xs: number[]) => finite(xs).length ? Math.max(...finite(xs)) : NaN;
/** `median (min–max)`, or the one value. */
const spread = (xs: number[], digits: number) =>
  finite(xs).length > 1
    ? `${num(median(xs), digits)} (${num(min(xs), digits)}–${num(max(xs), digits)})`
    : num(median(xs), digits);
/** Same-round ratios as `median× (min–max)`, or — without any. */
const ratioText = (ratios: number[]) => finite(ratios).length ? `${spread(ratios, 2)}×` : "—";
const accounted = (ms: Measurement[]) => {
  const worst = ms.reduce((a, m) => (m.completed / m.intended < a.completed / a.intended ? m : a));
  return Number.isFinite(worst.intended)
    ? `${num(worst.completed)} / ${num(worst.intended)}`
    : `${num(worst.completed)} / (closed loop)`;
};
/** A Markdown table; numbers right-aligned, the `textColumns` (by index) left. */
const table = (head: string[], rows: string[][], textColumns = [0]) =>
  [
    `| ${head.join(" | ")} |`,
    `| ${head.map((_, i) => (textColumns.includes(i) ? "---" : "---:")).join(" | ")} |`,
    ...rows.map((r) => `| ${r.join(" | ")} |`),
  ].join("\n");

/** Scenario 1's table: best of rounds, and each tool's p99 and p99.9 against oha's per round. */
function cServerTable(byRound: Measurement[][], tools: Tool[]): string {
  const rows = tools.map((tool) => {
    const ms = byRound.flatMap((round) => round.filter((m) => m.tool === tool.name));
    const toOha = (k: Percentile) =>
      byRound.map((round) => {
        const oha = round.find((m) => m.tool === "oha");
        return (round.find((m) => m.tool === tool.name)?.latencyUs[k] ?? NaN) /
          (oha?.latencyUs[k] ?? NaN);
      });
    return [
      tool.name,
      ...PERCENTILES.map(([k]) => num(min(ms.map((m) => m.latencyUs[k])))),
      accounted(ms),
      num(ms.reduce((a, m) => a + m.errors, 0)),
      num(max(ms.map((m) => m.achievedPerSec))),
      num(min(ms.map((m) => m.cpuUsPerRequest)), 1),
      ratioText(toOha("p99")),
      ratioText(toOha("p99.9")),
    ];
  });
  return table(
    ["tool", "p50 µs", "p90 µs", "p99 µs", "p99.9 µs", "max µs", "completed / intended"]
      .concat(["errors", "achieved /s", "CPU µs/req", "p99 ÷ oha", "p99.9 ÷ oha"]),
    rows,
  );
}

/** Scenario 2's table: per percentile the round closest to the truth, as `ms (×ratio)`. */
function truthTable(c: Case, byRound: Measurement[][], tools: Tool[]): string {
  const all = byRound.flat().filter((m) => Number.isFinite(m.completed));
  const truthRows = new Map<string, string[]>();
  for (const m of all) {
    const truth = truthOf(c, m);
    const key = PERCENTILES.map(([k]) => num(truth[k], 2)).join(" | ");
    truthRows.set(key, [...new Set([...(truthRows.get(key) ?? []), m.tool])]);
  }
  const rows = [...truthRows].map(([key, who]) =>
    [truthRows.size > 1 ? `**truth** (${who.join(", ")})` : "**truth**", ...key.split(" | ")]
      .concat(["", "", ""])
  );
  for (const tool of tools) {
    const ms = byRound.flatMap((round) => round.filter((m) => m.tool === tool.name));
    const cells = PERCENTILES.map(([k]) => {
      const pairs = ms.filter((m) => Number.isFinite(m.completed))
        .map((m) => ({
          ms: m.latencyUs[k] / 1000,
          ratio: m.latencyUs[k] / 1000 / truthOf(c, m)[k],
        }));
      if (pairs.length === 0) return "—";
      const best = pairs.reduce((a, b) =>
        Math.abs(Math.log(b.ratio)) < Math.abs(Math.log(a.ratio)) ? b : a
      );
      return `${num(best.ms, 2)} (${num(best.ratio, 2)}×)`;
    });
    rows.push([
      tool.name,
      ...cells,
      accounted(ms),
      num(ms.reduce((a, m) => a + m.errors, 0)),
      num(max(ms.map((m) => m.achievedPerSec))),
    ]);
  }
  return table(
    ["tool", "p50 ms", "p90 ms", "p99 ms", "p99.9 ms", "max ms", "completed / intended"]
      .concat(["errors", "achieved /s"]),
    rows,
  );
}

/** Every measurement of every round, as read. */
function rawTable(runs: { c: Case; round: number; order: string[]; ms: Measurement[] }[]): string {
  const rows = runs.flatMap(({ c, round, order, ms }) =>
    ms.map((m) => [
      c.id,
      String(round),
      String(order.indexOf(m.tool) + 1),
      m.tool,
      ...PERCENTILES.map(([k]) => num(m.latencyUs[k])),
      `${num(m.completed)} / ${Number.isFinite(m.intended) ? num(m.intended) : "—"}`,
      num(m.answeredBefore),
      num(m.errors),
      num(m.achievedPerSec),
      num(m.cpuUsPerRequest, 1),
      `${m.loadAvg[0]} → ${m.loadAvg[1]}`,
      [m.firstN === undefined ? "" : `--n ${m.firstN}`, m.note ?? ""].filter(Boolean).join("; "),
    ])
  );
  return table(
    ["case", "round", "order", "tool", "p50 µs", "p90 µs", "p99 µs", "p99.9 µs", "max µs"]
      .concat(["completed / intended", "answered before", "errors", "achieved /s", "CPU µs/req"])
      .concat(["load avg start → end", "note"]),
    rows,
    [0, 3, 14, 15],
  );
}

/** The method section, with this run's figures. */
function methodText(tools: Tool[]): string {
  const wrk2Runs = [...new Set(CASES.map((c) => c.connections))].map((connections) =>
    `\`-d${wrk2DurationS(connections)}s\` with ${connections} connections, a ` +
    `${num(wrk2WindowS(connections), 2)} s window`
  ).join("; ");
  return `## Method

- Command: \`npx -y deno@2.9.6 run -A bench/truth_table.ts ${Deno.args.join(" ")}\`, this script
  allowed on cores ${selfCores()}. Every server runs on core 0 (\`taskset -c 0\`), every generator
  on core 1 as \`/usr/bin/time -f "%U %S" taskset -c 1 <command>\`. Only 127.0.0.1 is loaded.
- ${rounds} round(s); within a case every tool runs once per round, in the order
  ${tools.map((t) => t.name).join(", ")} in odd rounds and the reverse in even ones.
- Every tool measures ${measuredS} s at the same rate and connection count. tailgate runs a
  ${warmupS} s warmup stage at the same rate first and reads only the measured stage. oha
  (\`-z ${measuredS}s -q RATE -c CONNS --latency-correction --output-format json\`) and wrk
  (\`-t1 -cCONNS -d${measuredS}s --latency\` with a \`done\` Lua callback) have no warmup. wrk2
  resets its histograms after a calibration of 10 s + 5 ms per connection (src/wrk.c:
  CALIBRATE_DELAY_MS and the connection stagger), so it runs for ${measuredS} s plus that,
  rounded up: \`-t1 -cCONNS -dDURATION -RRATE --latency\` (${wrk2Runs});
  its figures are the "Recorded Latency" (corrected)
  HdrHistogram lines, max and count from its footer, over the window after the calibration.
- Latency: tailgate's measured stage \`response\` (completion − intended send time) percentiles and
  \`maxUs\` from result.json; oha's \`latencyPercentiles\` and \`summary.slowest\`; wrk2's
  50/90/99/99.9% lines and \`#[Max]\`; wrk's \`latency:percentile()\` and \`latency.max\`.
- completed / intended: measured requests with an outcome over what the schedule called for
  (tailgate: \`counts.completed\` / \`counts.scheduled\`; oha: responses / rate × ${measuredS} s;
  wrk2: histogram count / rate × window); the worst round. achieved /s: those completions per second
  of the measured window (tailgate: stage start to the last completion); the best round.
- CPU µs/req: the generator process's user + system CPU (/usr/bin/time) over every request it
  completed, warmup and calibration included (tailgate's start-up and warmup, oha's and wrk's
  whole run); the best round. tailgate's own \`health.cpu.perRequestUs\` is in the raw table.
- Scenario 1 has no analytic truth: p50…max are the lowest over the rounds; ÷ oha is the same-round
  ratio to oha (median and range over rounds). Scenario 2 shows, per percentile, the round closest to
  the truth (smallest |log(measured ÷ truth)|) as \`ms (measured ÷ truth ×)\`.
- The built-in target is started afresh (\`tailgate target --port 0 …\` on core 0) for every tool
  run, so its clock and answer count start at zero each time.`;
}

function selfCores(): string {
  return /Cpus_allowed_list:\s*(\S+)/.exec(Deno.readTextFileSync("/proc/self/status"))?.[1] ?? "?";
}

async function main(): Promise<void> {
  const loadStart = loadAverage();
  const { tools, missing } = await findTools();
  const cpuinfo = Deno.readTextFileSync("/proc/cpuinfo");
  const runs: { c: Case; round: number; order: string[]; ms: Measurement[] }[] = [];
  const server = await startCServer(Number(values.port), dir);
  const cUrl = `http://127.0.0.1:${Number(values.port)}/`;
  try {
    for (const c of CASES) {
      if (c.target && live.has(server.pid)) await stopProcess(server);
      for (let round = 1; round <= rounds; round++) {
        const { order, measurements } = await runRound(c, round, tools, cUrl);
        runs.push({ c, round, order, ms: measurements });
      }
    }
  } finally {
    if (live.has(server.pid)) await stopProcess(server);
  }
  const byCase = (c: Case) => runs.filter((r) => r.c === c).map((r) => r.ms);
  const out: string[] = [
    "# Truth table: tailgate and its peers",
    "",
    `${new Date().toISOString()}; raw outputs (every log, plan and result.json) in \`${dir}\`.`,
    "",
    table(["what", "value"], [
      [
        "machine",
        `${cpuinfo.match(/^processor\s*:/gm)?.length} cpus (/proc/cpuinfo), ${
          /model name\s*:\s*(.*)/.exec(cpuinfo)?.[1] ?? "?"
        }; ${Deno.osRelease()}`,
      ],
      ["Deno", `${Deno.version.deno} (V8 ${Deno.version.v8})`],
      ...tools.map((t) => [t.name, t.version]),
      ...missing.map((m) => [m.split(" ")[0], m]),
      ["load average (1/5/15 min)", `${loadStart} at the start, ${loadAverage()} at the end`],
    ], [0, 1]),
    "",
    methodText(tools),
    "",
    `## 1. The C server, ${C_CONNECTIONS} connections (hello_epoll.c, \`cc -O2\`)`,
  ];
  for (const c of CASES.filter((x) => !x.target)) {
    out.push("", `### ${c.title}`, "", cServerTable(byCase(c), tools));
  }
  out.push("", `## 2. The built-in target at ${TRUTH_RATE_PER_SEC / 1000}k/s: analytic truth`);
  for (const c of CASES.filter((x) => x.target)) {
    out.push(
      "",
      `### ${c.title}, ${c.connections} connections`,
      "",
      `\`tailgate target ${c.target!.flags.join(" ")}\`. Truth: ${c.target!.truthText}.`,
      "",
      truthTable(c, byCase(c), tools),
    );
  }
  out.push("", "## Every round", "", rawTable(runs), "", notesText(missing));
  const markdown = out.join("\n") + "\n";
  console.log(markdown);
  await Deno.writeTextFile(`${dir}/truth_table.md`, markdown);
  await Deno.writeTextFile(`${dir}/measurements.json`, JSON.stringify(runs, null, 1) + "\n");
  if (values.md) await Deno.writeTextFile(values.md, markdown);
}

/** What the tables cannot say by themselves. */
function notesText(missing: string[]): string {
  return `## Notes

${
    missing.map((m) => `- ${m}.\n`).join("")
  }- wrk is closed-loop: a connection sends only when its previous answer came, so it never holds a
  rate (its "achieved" is whatever it reached). Against the stall target it sends almost nothing
  while the server is frozen (coordinated omission: too few slow samples). Against bimodal and
  first-n, whose delays depend on the answer's number, not its time, a closed loop sees the same
  per-request truth, but wrk drives the built-in target as fast as it answers, so the target's own
  queueing adds. The raw table flags a wrk run whose mean latency exceeds connections ÷ throughput
  (Little's law), i.e. whose latency sample cannot be every request.
- wrk2 gives each connection a fixed share of the rate and sends from a millisecond event-loop
  timer, so its corrected latency includes up to about 1 ms of its own send lateness, and a slow
  answer delays the next send on that connection (the stall case uses 400 connections so that
  every request of a stall is in flight at once, for every tool).
- oha's \`-z\` aborts requests still in flight at the deadline; they are not counted as errors
  (see the raw table's note).
- first-n: the target numbers its answers from its start, across connections, and counts every
  request it answers: tailgate's warmup and wrk2's calibration requests come first. The truth for a
  tool is therefore defined by its own counts: measured answers number b..b+N−1 (b = warmup or
  calibration answers, N = measured answers), of which clamp(n − b, 0, N) took --delay and the rest
  --slow; its p-quantile is --delay when ceil(p·N) is within the fast ones, else --slow. --n is set
  per run so that about ${FIRST_N.fastShare * 100}% of the planned measured answers are fast;
  closed-loop wrk sends far more than planned, so its truth differs (own truth row).
- stall: the period counts from the target's start; each tool measures a whole number of periods
  (${measuredS} s), so the stalled share is exactly stall ÷ period whatever the phase.
- Compare tools within a round; the load average beside every run shows how quiet the machine was.`;
}

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  Deno.addSignalListener(signal, () => {
    killLive("SIGKILL");
    Deno.exit(signal === "SIGINT" ? 130 : 143);
  });
}
try {
  await main();
} finally {
  killLive("SIGKILL");
}
