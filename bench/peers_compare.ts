/**
 * The load engine's targets, measured side by side with its peers: peak throughput against wrk,
 * CPU per request at a fixed rate against oha, tailgate's own precision at that rate, and RSS
 * flatness over ten minutes. The server (bench/servers/hello_epoll.c, built here with `cc -O2`)
 * runs on core 0, every generator on core 1. Results and method: docs/benchmarks.md. Run it from
 * the repository root, on core 0 itself so its sampling stays off the generator's core:
 *
 *     taskset -c 0 npx -y deno@2.9.6 run -A bench/peers_compare.ts [--quick]
 *
 * Options: --rounds 3 (1 with --quick), --only peak,fixed,memory, --port 18180, --out DIR (raw
 * results; default a temporary directory), --max-other-pct 15 and --retries 2 (a measurement
 * during which other processes used more than that share of either core is repeated), --quick (5 s
 * runs and a 2-minute RSS check: a smoke test). Needs cc, taskset, /usr/bin/time, wrk and oha.
 * Only ever loads 127.0.0.1; kills the server and every generator it started by PID, also on
 * errors and Ctrl-C.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { ENGINE_V8_FLAGS } from "../runner/engine/v8_flags.ts";
import type { EncodedHistogram, RunResult } from "../runner/model/run_result.ts";
import {
  childOf,
  coreTicks,
  killLive,
  live,
  loadAverage,
  median,
  procStat,
  sleep,
  startCServer,
} from "./_harness.ts";

const { values } = parseArgs({
  options: {
    quick: { type: "boolean", default: false },
    rounds: { type: "string" },
    only: { type: "string", default: "peak,fixed,memory" },
    port: { type: "string", default: "18180" },
    out: { type: "string" },
    "max-other-pct": { type: "string", default: "15" },
    retries: { type: "string", default: "2" },
  },
});
const quick = values.quick;
const rounds = Number(values.rounds ?? (quick ? 1 : 3));
const only = new Set(values.only.split(","));
const url = `http://127.0.0.1:${Number(values.port)}/`;
const maxOtherPct = Number(values["max-other-pct"]);
const retries = Number(values.retries);
/** Run lengths (s). Memory: RSS is read at `rssEarlyS` and `rssLateS` after the schedule starts. */
const T = quick
  ? { peakS: 5, fixedS: 5, warmupS: 1, rssEarlyS: 60, rssLateS: 120 }
  : { peakS: 10, fixedS: 30, warmupS: 2, rssEarlyS: 120, rssLateS: 600 };
const FIXED_PER_SEC = 20_000;
/** Issue 31's memory target: at 20k/s, RSS within 5% from minute 2 to minute 10. */
const MEMORY_PER_SEC = 20_000;
const PEAK_PER_SEC = 150_000;
const CLK_TCK = 100;
const cli = new URL("../cli.ts", import.meta.url).pathname;
const dir = values.out ?? await Deno.makeTempDir({ prefix: "tailgate-peers-" });
await Deno.mkdir(dir, { recursive: true });
/** PIDs of every process started and not yet reaped, killed on the way out. */

interface Sample {
  tMs: number;
  cpuTicks: number;
  rssKb: number;
}

/** One generator process on core 1, watched from outside. */
interface ToolRun {
  stdout: string;
  stderr: string;
  code: number;
  startMs: number;
  samples: Sample[];
  /** From /usr/bin/time: the whole process's user and system CPU (s), wall (s), max RSS. */
  userS: number;
  systemS: number;
  maxRssKb: number;
  /**
   * CPU other processes used meanwhile, in % of a core: on core 0 besides the server and this
   * script, on core 1 besides the generator; `otherPct` is the larger. Steal: both cores, % of one.
   */
  otherPct: number;
  otherByCorePct: number[];
  stealPct: number;
}

/** CPU ticks of this script and the server (core 0's own load). */
const core0OwnTicks = () =>
  (procStat(Deno.pid)?.cpuTicks ?? 0) + (procStat(serverPid)?.cpuTicks ?? 0);
let serverPid = 0;

/** Runs `args` on core 1 under /usr/bin/time, sampling its CPU and RSS every `everyMs`. */
async function runPinned(args: string[], everyMs: number, limitS: number): Promise<ToolRun> {
  const timeFile = `${dir}/time-${crypto.randomUUID()}.txt`;
  const coreBefore = coreTicks();
  const ownBefore = core0OwnTicks();
  const startMs = Date.now();
  const proc = new Deno.Command("/usr/bin/time", {
    args: ["-o", timeFile, "-f", "%U %S %e %M", "taskset", "-c", "1", ...args],
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  live.add(proc.pid);
  const pid = await childOf(proc.pid);
  live.add(pid);
  let exited = false;
  const output = proc.output().finally(() => exited = true);
  const samples: Sample[] = [];
  const endMs = startMs + limitS * 1000;
  while (!exited && Date.now() < endMs) {
    const s = procStat(pid);
    if (s) samples.push({ tMs: Date.now(), ...s });
    await sleep(everyMs);
  }
  if (!exited) Deno.kill(pid, "SIGKILL");
  const out = await output;
  live.delete(pid);
  live.delete(proc.pid);
  const coreAfter = coreTicks();
  const own = core0OwnTicks() - ownBefore;
  const [userS, systemS, , maxRssKb] = (await Deno.readTextFile(timeFile)).trim().split("\n")
    .at(-1)!.split(" ").map(Number);
  const delta = (core: number, key: "busy" | "steal" | "total") =>
    coreAfter[core][key] - coreBefore[core][key];
  const otherByCorePct = [
    100 * (delta(0, "busy") - own) / delta(0, "total"),
    100 * (delta(1, "busy") - (userS + systemS) * CLK_TCK) / delta(1, "total"),
  ].map((x) => Math.max(0, Math.round(x)));
  const text = (b: Uint8Array) => new TextDecoder().decode(b);
  return {
    stdout: text(out.stdout),
    stderr: text(out.stderr),
    code: out.code,
    startMs,
    samples,
    userS,
    systemS,
    maxRssKb,
    otherPct: Math.max(...otherByCorePct),
    otherByCorePct,
    stealPct: Math.round(100 * (delta(0, "steal") + delta(1, "steal")) / delta(1, "total")),
  };
}

/** CPU µs per request between `fromMs` and `toMs` (wall), at `perSec` requests per second. */
function windowCpuUs(samples: Sample[], fromMs: number, toMs: number, perSec: number): number {
  const a = samples.find((s) => s.tMs >= fromMs);
  const b = samples.findLast((s) => s.tMs <= toMs);
  if (!a || !b || b.tMs <= a.tMs) return NaN;
  return (b.cpuTicks - a.cpuTicks) / CLK_TCK * 1e6 / ((b.tMs - a.tMs) / 1000 * perSec);
}

/** Runs tailgate on a plan with the given stages; returns the process and its result. */
async function runTailgate(name: string, stagesYaml: string[], everyMs: number, limitS: number) {
  const planPath = `${dir}/${name}.yaml`;
  const outDir = `${dir}/${name}-${crypto.randomUUID().slice(0, 8)}`;
  await Deno.writeTextFile(
    planPath,
    [
      `name: ${name}`,
      `target: ${url}`,
      "defaults: { timeout: 60s }",
      "requests: [{ path: / }]",
      "load:",
      "  connections: 50",
      "  max_connections: 50",
      "  stages:",
      ...stagesYaml.map((s) => `    - ${s}`),
    ].join("\n") + "\n",
  );
  const args = [
    Deno.execPath(),
    "run",
    `--v8-flags=${ENGINE_V8_FLAGS}`,
    "-A",
    cli,
    "run",
    planPath,
    "--target",
    url,
  ];
  const proc = await runPinned([...args, "--out", outDir], everyMs, limitS);
  if (proc.code !== 0 && proc.code !== 3) {
    throw new Error(`tailgate exited with ${proc.code}: ${proc.stderr.slice(-2000)}`);
  }
  const result: RunResult = JSON.parse(await Deno.readTextFile(`${outDir}/result.json`));
  return { proc, result, resultPath: `${outDir}/result.json` };
}

/** Repeats `measure` while other processes took more than --max-other-pct of a core. */
async function steady<R extends { otherPct: number }>(what: string, measure: () => Promise<R>) {
  for (let attempt = 0;; attempt++) {
    const r = await measure();
    if (r.otherPct <= maxOtherPct || attempt >= retries) return r;
    console.error(`# ${what}: other processes used ${r.otherPct.toFixed(0)}% of a core; again`);
    discarded.push({ what, ...r });
  }
}
const discarded: unknown[] = [];

async function peakRound() {
  const wrk = await steady("wrk", async () => {
    const p = await runPinned(["wrk", "-t1", "-c50", `-d${T.peakS}s`, url], 250, T.peakS + 30);
    const m = /(\d+) requests in ([\d.]+)(ms|s|m)/.exec(p.stdout);
    const seconds = m ? Number(m[2]) * { ms: 0.001, s: 1, m: 60 }[m[3] as "s"] : NaN;
    const requests = Number(m?.[1] ?? NaN);
    const errors = /Non-2xx|Socket errors/.test(p.stdout) ? p.stdout : "";
    return { perSec: requests / seconds, requests, errors, ...cpuOf(p, requests) };
  });
  const tailgate = await steady("tailgate peak", async () => {
    const { proc, result, resultPath } = await runTailgate(
      "peak",
      [
        `{ rate: ${MEMORY_PER_SEC / 1000}k/s, duration: ${T.warmupS}s, warmup: true }`,
        `{ rate: ${PEAK_PER_SEC / 1000}k/s, duration: ${T.peakS}s }`,
      ],
      250,
      T.peakS * 4 + 60,
    );
    const stage = result.stages[1];
    // Overloaded from its first request, the stage keeps every connection busy until its backlog
    // has drained: its completions over [stage start, last completion] are the peak rate.
    const busyS = (result.run.durationMs - stage.startMs) / 1000;
    return {
      perSec: stage.counts.completed / busyS,
      requests: stage.counts.completed,
      scheduled: stage.counts.scheduled,
      errors: result.totals.counts.errors,
      busyS,
      resultPath,
      ...cpuOf(proc, result.totals.counts.completed),
    };
  });
  return { wrk, tailgate, ratio: tailgate.perSec / wrk.perSec };
}

/** Whole-process CPU per request, the load on core 1 meanwhile and the peak RSS. */
function cpuOf(p: ToolRun, requests: number) {
  const { otherPct, otherByCorePct, stealPct, maxRssKb } = p;
  const cpuUs = (p.userS + p.systemS) * 1e6 / requests;
  return { cpuUs, otherPct, otherByCorePct, stealPct, maxRssKb };
}

function percentilesUs(h: EncodedHistogram) {
  const p = h.percentilesUs;
  return { p50: p["50"], p99: p["99"], p999: p["99.9"], max: h.maxUs };
}

async function fixedRound(round: number) {
  const window = (startMs: number) =>
    [startMs + T.fixedS * 1000 / 6, startMs + T.fixedS * 5000 / 6] as const;
  const oha = () =>
    steady("oha", async () => {
      const p = await runPinned(
        [
          `${Deno.env.get("HOME")}/.cargo/bin/oha`,
          ...["-z", `${T.fixedS}s`, "-q", String(FIXED_PER_SEC), "-c", "50"],
          ...["--latency-correction", "--no-tui", "--output-format", "json", url],
        ],
        100,
        T.fixedS + 30,
      );
      const o = JSON.parse(p.stdout);
      const requests = Object.values(o.statusCodeDistribution as Record<string, number>)
        .reduce((a, b) => a + b, 0);
      const perSec = requests / o.summary.total;
      const us = (s: number) => Math.round(s * 1e6);
      const lp = o.latencyPercentiles;
      return {
        perSec,
        requests,
        windowCpuUs: windowCpuUs(p.samples, ...window(p.startMs), perSec),
        errors: o.errorDistribution,
        latencyUs: {
          p50: us(lp.p50),
          p99: us(lp.p99),
          p999: us(lp["p99.9"]),
          max: us(o.summary.slowest),
        },
        ...cpuOf(p, requests),
      };
    });
  const tailgate = () =>
    steady("tailgate fixed", async () => {
      const { proc, result, resultPath } = await runTailgate(
        "fixed",
        [
          `{ rate: ${FIXED_PER_SEC / 1000}k/s, duration: ${T.warmupS}s, warmup: true }`,
          `{ rate: ${FIXED_PER_SEC / 1000}k/s, duration: ${T.fixedS}s }`,
        ],
        100,
        T.fixedS + 60,
      );
      const stage = result.stages[1];
      const h = result.health;
      const perSec = stage.counts.sent / (stage.durationMs / 1000);
      const stageStartMs = Date.parse(result.run.startedAt) + stage.startMs;
      return {
        perSec,
        requests: result.totals.counts.completed,
        windowCpuUs: windowCpuUs(proc.samples, ...window(stageStartMs), perSec),
        engineCpuUs: h.cpu.perRequestUs,
        sendLagP99Us: h.sendLag.percentilesUs["99"],
        achievedFraction: h.achievedPerSec / h.intendedPerSec,
        // health.achievedPerSec counts every send, drain included, so a complete run always shows
        // 100%: the schedule's length over the run's (to the last outcome) bounds the real rate.
        inScheduleFraction: Math.min(1, (stage.startMs + stage.durationMs) / result.run.durationMs),
        toolLimited: h.toolLimited,
        reasons: h.reasons,
        errors: result.totals.counts.errors,
        response: percentilesUs(stage.response),
        service: percentilesUs(stage.service),
        resultPath,
        ...cpuOf(proc, result.totals.counts.completed),
      };
    });
  // Alternate which tool goes first, so a drift in the machine's load does not favour one.
  if (round % 2 === 0) {
    const o = await oha();
    return { oha: o, tailgate: await tailgate() };
  }
  const t = await tailgate();
  return { oha: await oha(), tailgate: t };
}

async function memoryRun() {
  const { proc, result, resultPath } = await runTailgate(
    "memory",
    [
      `{ rate: ${MEMORY_PER_SEC / 1000}k/s, duration: ${T.warmupS}s, warmup: true }`,
      `{ rate: ${MEMORY_PER_SEC / 1000}k/s, duration: ${T.rssLateS + 20}s }`,
    ],
    5000,
    T.rssLateS + 120,
  );
  const startMs = Date.parse(result.run.startedAt);
  const at = (s: number) =>
    proc.samples.reduce((a, b) =>
      Math.abs(b.tMs - startMs - s * 1000) < Math.abs(a.tMs - startMs - s * 1000) ? b : a
    );
  const early = at(T.rssEarlyS).rssKb;
  const late = at(T.rssLateS).rssKb;
  // The same comparison over the whole minute before each reading: a reading on its own also
  // catches where each isolate's garbage collector happens to be (±10 MiB).
  const minuteMean = (endS: number) => {
    const xs = proc.samples.filter((s) => {
      const atS = (s.tMs - startMs) / 1000;
      return atS > endS - 60 && atS <= endS;
    }).map((s) => s.rssKb);
    return xs.reduce((a, b) => a + b, 0) / xs.length;
  };
  const earlyMeanKb = minuteMean(T.rssEarlyS);
  const lateMeanKb = minuteMean(T.rssLateS);
  const perMinuteKb = proc.samples.filter((_, i) => i % 12 === 0).map((s) => ({
    atS: Math.round((s.tMs - startMs) / 1000),
    rssKb: s.rssKb,
  }));
  return {
    earlyKb: early,
    lateKb: late,
    growth: late / early - 1,
    earlyMeanKb,
    lateMeanKb,
    meanGrowth: lateMeanKb / earlyMeanKb - 1,
    maxRssKb: proc.maxRssKb,
    sendLagP99Us: result.health.sendLag.percentilesUs["99"],
    toolLimited: result.health.toolLimited,
    otherByCorePct: proc.otherByCorePct,
    perMinuteKb,
    resultPath,
  };
}

/** `median (min–max)` with `digits` decimals. */
function summary(xs: number[], digits = 0): string {
  const f = (x: number) => x.toLocaleString("en-US", { maximumFractionDigits: digits });
  return `${f(median(xs))} (${f(Math.min(...xs))}–${f(Math.max(...xs))})`;
}

const log = (line: string) => console.log(line);

async function main(): Promise<void> {
  const cpuinfo = Deno.readTextFileSync("/proc/cpuinfo");
  log(
    `# ${cpuinfo.match(/^processor\s*:/gm)?.length} cpus (${
      /model name\s*:\s*(.*)/.exec(cpuinfo)?.[1]
    }), ` +
      `Deno ${Deno.version.deno}, load average ${loadAverage()}, raw results in ${dir}`,
  );
  serverPid = (await startCServer(Number(values.port), dir)).pid;
  const raw: Record<string, unknown> = { quick, rounds, T, loadAtStart: loadAverage() };
  if (only.has("peak")) {
    const peaks = [];
    for (let round = 0; round < rounds; round++) {
      const r = await peakRound();
      peaks.push(r);
      log(
        `peak round ${round + 1}: wrk ${Math.round(r.wrk.perSec)}/s, tailgate ` +
          `${Math.round(r.tailgate.perSec)}/s (${(100 * r.ratio).toFixed(1)}%), ` +
          `other ${r.wrk.otherPct}/${r.tailgate.otherPct}%, ` +
          `load ${loadAverage()}`,
      );
    }
    raw.peak = peaks;
    log("\n| peak, 50 connections | req/s | CPU µs/req (process) |\n| --- | ---: | ---: |");
    log(
      `| wrk | ${summary(peaks.map((p) => p.wrk.perSec))} | ` +
        `${summary(peaks.map((p) => p.wrk.cpuUs), 1)} |`,
    );
    log(
      `| tailgate | ${summary(peaks.map((p) => p.tailgate.perSec))} | ` +
        `${summary(peaks.map((p) => p.tailgate.cpuUs), 1)} |`,
    );
    log(`| tailgate / wrk | ${summary(peaks.map((p) => 100 * p.ratio), 1)} % | target ≥ 90% |\n`);
  }
  if (only.has("fixed")) {
    const fixed: Awaited<ReturnType<typeof fixedRound>>[] = [];
    for (let round = 0; round < rounds; round++) {
      const r = await fixedRound(round);
      fixed.push(r);
      const t = r.tailgate;
      log(
        `fixed round ${round + 1}: CPU µs/req (window) oha ${r.oha.windowCpuUs.toFixed(2)}, ` +
          `tailgate ${t.windowCpuUs.toFixed(2)}; send lag p99 ${t.sendLagP99Us} µs, achieved ` +
          `${(100 * t.achievedFraction).toFixed(2)}%, tool-limited ${t.toolLimited}, other ` +
          `${r.oha.otherPct}/${t.otherPct}%, load ${loadAverage()}`,
      );
    }
    raw.fixed = fixed;
    const col = (f: (r: (typeof fixed)[number]) => number, d = 1) => summary(fixed.map(f), d);
    log(`\n| ${FIXED_PER_SEC / 1000}k/s | oha | tailgate |\n| --- | ---: | ---: |`);
    log(
      `| CPU µs/req, steady window | ${col((r) => r.oha.windowCpuUs, 2)} | ` +
        `${col((r) => r.tailgate.windowCpuUs, 2)} |`,
    );
    log(
      `| CPU µs/req, whole process | ${col((r) => r.oha.cpuUs, 2)} | ` +
        `${col((r) => r.tailgate.cpuUs, 2)} |`,
    );
    log(
      `| tailgate / oha (window) | | ${
        col((r) => r.tailgate.windowCpuUs / r.oha.windowCpuUs, 2)
      }× (target ≤ 2×) |`,
    );
    log(`| send lag p99 µs | | ${col((r) => r.tailgate.sendLagP99Us)} (target < 300) |`);
    log(
      `| achieved % | ${col((r) => 100 * r.oha.perSec / FIXED_PER_SEC, 2)} | ` +
        `${col((r) => 100 * r.tailgate.achievedFraction, 2)} (target ≥ 99.5) |`,
    );
    log(`| schedule ÷ run length % | | ${col((r) => 100 * r.tailgate.inScheduleFraction, 3)} |`);
    for (const k of ["p50", "p99", "p999", "max"] as const) {
      log(
        `| corrected ${k} µs | ${col((r) => r.oha.latencyUs[k], 0)} | ` +
          `${col((r) => r.tailgate.response[k], 0)} (service ${
            col((r) => r.tailgate.service[k], 0)
          }) |`,
      );
    }
    log(`tool-limited rounds: ${fixed.filter((r) => r.tailgate.toolLimited).length} of ${rounds}`);
  }
  if (only.has("memory")) {
    const m = await memoryRun();
    raw.memory = m;
    log(
      `\nRSS at ${MEMORY_PER_SEC / 1000}k/s: ${(m.earlyKb / 1024).toFixed(1)} MiB after ` +
        `${T.rssEarlyS} s, ${(m.lateKb / 1024).toFixed(1)} MiB after ${T.rssLateS} s ` +
        `(${(100 * m.growth).toFixed(1)}%, target within 5%); the minutes before them ` +
        `${(m.earlyMeanKb / 1024).toFixed(1)} and ${(m.lateMeanKb / 1024).toFixed(1)} MiB ` +
        `on average (${(100 * m.meanGrowth).toFixed(1)}%); max ${
          (m.maxRssKb / 1024).toFixed(1)
        } MiB, send lag p99 ${m.sendLagP99Us} µs, load ${loadAverage()}`,
    );
  }
  raw.discarded = discarded;
  raw.loadAtEnd = loadAverage();
  await Deno.writeTextFile(`${dir}/summary.json`, JSON.stringify(raw, null, 1) + "\n");
  log(`raw: ${dir}/summary.json`);
}

Deno.addSignalListener("SIGINT", () => {
  killLive("SIGTERM");
  Deno.exit(130);
});
try {
  await main();
} finally {
  killLive("SIGTERM");
}
