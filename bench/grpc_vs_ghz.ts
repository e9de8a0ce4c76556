/**
 * tailgate against ghz (issue 46's peer): the same open-model rate and connections against the same
 * grpc-go greeter_server, the tools alternating, several rounds, one table. The server runs on core
 * 0, each tool on core 1 (taskset); run the script itself on core 0 so its sampling stays off the
 * tool's core. Results and method: docs/benchmarks.md ("gRPC: tailgate against ghz").
 *
 *     taskset -c 0 deno run -A bench/grpc_vs_ghz.ts [--rounds 3] [--rate 1000] [--secs 10]
 *       [--conns 8] [--workers N] [--port 18950] [--bin DIR] [--out DIR]
 *
 * Each run is a 2 s warmup then `--secs` measured, at `--rate` calls/s over `--conns` connections.
 * tailgate: a plan with a warmup stage and a measured stage, read from result.json (stage 1).
 * ghz: `-z` warmup+secs with `--skipFirst` rate×2 (the warmup's calls left out of its figures) and
 * `--duration-stop wait`; `-c` (workers, each one call at a time) is `--workers`, by default
 * max(conns, rate × 50 ms): a worker shortage would need calls averaging 50 ms. CPU per call is the
 * tool process's user + system time (/usr/bin/time) over every call it completed, warmup and
 * start-up included; "steady" is the same from /proc/PID/stat samples over the middle of the run,
 * calls counted by the server's log. The greeter logs `Received: …` per call: its count per run
 * must equal the tool's completed calls (interop). Needs taskset, /usr/bin/time and the binaries
 * `.ci/install-tools` builds (greeter_server, ghz) in `--bin` (default
 * ~/.cache/tailgate-tools/grpc/bin). Only ever loads 127.0.0.1; kills every process it started by
 * PID, also on errors and Ctrl-C.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { ENGINE_V8_FLAGS } from "../runner/engine/v8_flags.ts";
import type { RunResult } from "../runner/model/run_result.ts";
import {
  childOf,
  coreTicks,
  kill,
  killLive,
  live,
  loadAverage,
  median,
  procStat,
  sleep,
  waitForPort,
} from "./_harness.ts";

const { values } = parseArgs({
  options: {
    rounds: { type: "string", default: "3" },
    rate: { type: "string", default: "1000" },
    secs: { type: "string", default: "10" },
    conns: { type: "string", default: "8" },
    workers: { type: "string" },
    port: { type: "string", default: "18950" },
    bin: { type: "string", default: `${Deno.env.get("HOME")}/.cache/tailgate-tools/grpc/bin` },
    out: { type: "string" },
  },
});
const rounds = Number(values.rounds);
const rate = Number(values.rate);
const secs = Number(values.secs);
const conns = Number(values.conns);
const workers = Number(values.workers ?? Math.max(conns, Math.ceil(rate * 0.05)));
const port = Number(values.port);
const WARMUP_S = 2;
const CLK_TCK = 100;
const cli = new URL("../cli.ts", import.meta.url).pathname;
const proto = new URL("../plans/examples/grpc/protos/helloworld.proto", import.meta.url).pathname;
const dir = values.out ?? await Deno.makeTempDir({ prefix: "tailgate-grpc-ghz-" });
await Deno.mkdir(dir, { recursive: true });
await Deno.copyFile(proto, `${dir}/helloworld.proto`);
const serverLog = `${dir}/greeter.log`;

/** `Received:` lines of the greeter's log from byte `from` on, and the log's size now. */
async function receivedSince(from: number): Promise<{ lines: number; size: number }> {
  const bytes = await Deno.readFile(serverLog);
  const text = new TextDecoder().decode(bytes.subarray(from));
  return {
    lines: text.split("\n").filter((l) => l.includes("Received:")).length,
    size: bytes.length,
  };
}

/** One run of a tool on core 1. */
interface Run {
  tool: "tailgate" | "ghz";
  round: number;
  serviceP50Us: number;
  serviceP99Us: number;
  /** tailgate only: from the intended send (corrected for coordinated omission). */
  responseP50Us: number;
  responseP99Us: number;
  /** Calls completed, warmup included, and those with status OK. */
  completed: number;
  ok: number;
  received: number;
  cpuUsPerCall: number;
  steadyCpuUsPerCall: number;
  /** CPU others used on core 1 meanwhile, % of the core. */
  otherCore1Pct: number;
}

/** Runs `args` on core 1 under /usr/bin/time, sampling its CPU and the server's count. */
async function runPinned(args: string[], cwd: string) {
  const timeFile = `${dir}/time-${crypto.randomUUID()}.txt`;
  const logFrom = (await Deno.stat(serverLog)).size;
  const before = coreTicks();
  const proc = new Deno.Command("/usr/bin/time", {
    args: ["-o", timeFile, "-f", "%U %S", "taskset", "-c", "1", ...args],
    cwd,
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  live.add(proc.pid);
  const pid = await childOf(proc.pid);
  live.add(pid);
  let exited = false;
  const output = proc.output().finally(() => exited = true);
  const samples: { ticks: number; calls: number }[] = [];
  const until = Date.now() + (WARMUP_S + secs + 60) * 1000;
  while (!exited && Date.now() < until) {
    const s = procStat(pid);
    if (s) samples.push({ ticks: s.cpuTicks, calls: (await receivedSince(logFrom)).lines });
    await sleep(100);
  }
  if (!exited) kill(pid, "SIGKILL");
  const out = await output;
  live.delete(pid);
  live.delete(proc.pid);
  const after = coreTicks();
  const [userS, systemS] = (await Deno.readTextFile(timeFile)).trim().split("\n").at(-1)!
    .split(" ").map(Number);
  const core1 = (k: "busy" | "total") => after[1][k] - before[1][k];
  // The middle of the run: from 1 s into the measured stage to 1 s before its end.
  const a = samples.find((s) => s.calls >= rate * (WARMUP_S + 1));
  const b = samples.findLast((s) => s.calls <= rate * (WARMUP_S + secs - 1));
  return {
    code: out.code,
    stdout: new TextDecoder().decode(out.stdout),
    stderr: new TextDecoder().decode(out.stderr),
    cpuS: userS + systemS,
    steadyCpuUsPerCall: a && b && b.calls > a.calls
      ? (b.ticks - a.ticks) / CLK_TCK * 1e6 / (b.calls - a.calls)
      : NaN,
    received: (await receivedSince(logFrom)).lines,
    otherCore1Pct: Math.max(
      0,
      Math.round(100 * (core1("busy") - (userS + systemS) * CLK_TCK) / core1("total")),
    ),
  };
}

async function runTailgate(round: number): Promise<Run> {
  const planPath = `${dir}/greeter.yaml`;
  const outDir = `${dir}/tailgate-${round}`;
  await Deno.writeTextFile(
    planPath,
    [
      "name: greeter",
      `target: grpc://127.0.0.1:${port}`,
      "grpc: { proto: [helloworld.proto] }",
      "vars: { n: counter }",
      "requests:",
      '  - { name: SayHello, call: helloworld.Greeter/SayHello, message: { name: "user-{{n}}" } }',
      "load:",
      `  connections: ${conns}`,
      "  stages:",
      `    - { rate: ${rate}/s, duration: ${WARMUP_S}s, warmup: true }`,
      `    - { rate: ${rate}/s, duration: ${secs}s }`,
    ].join("\n") + "\n",
  );
  const args = [Deno.execPath(), "run", `--v8-flags=${ENGINE_V8_FLAGS}`, "-A", cli, "run"];
  const p = await runPinned(
    [...args, planPath, "--out", outDir, "--report", "json", "--no-baseline"],
    dir,
  );
  if (p.code !== 0) throw new Error(`tailgate exited with ${p.code}: ${p.stderr.slice(-2000)}`);
  const result: RunResult = JSON.parse(await Deno.readTextFile(`${outDir}/result.json`));
  const stage = result.stages[1];
  const completed = result.stages.reduce((n, s) => n + s.counts.completed, 0);
  const ok = result.stages.reduce((n, s) => n + (s.counts.statusCodes?.OK ?? 0), 0);
  return {
    tool: "tailgate",
    round,
    serviceP50Us: stage.service.percentilesUs["50"],
    serviceP99Us: stage.service.percentilesUs["99"],
    responseP50Us: stage.response.percentilesUs["50"],
    responseP99Us: stage.response.percentilesUs["99"],
    completed,
    ok,
    received: p.received,
    cpuUsPerCall: p.cpuS * 1e6 / completed,
    steadyCpuUsPerCall: p.steadyCpuUsPerCall,
    otherCore1Pct: p.otherCore1Pct,
  };
}

async function runGhz(round: number): Promise<Run> {
  const skip = rate * WARMUP_S;
  const p = await runPinned([
    `${values.bin}/ghz`,
    "--insecure",
    "--proto",
    "helloworld.proto",
    "--call",
    "helloworld.Greeter.SayHello",
    "-d",
    '{"name":"user-{{.RequestNumber}}"}',
    "--rps",
    String(rate),
    "--connections",
    String(conns),
    "-c",
    String(workers),
    "-z",
    `${WARMUP_S + secs}s`,
    "--skipFirst",
    String(skip),
    "--duration-stop",
    "wait",
    "--format",
    "json",
    `127.0.0.1:${port}`,
  ], dir);
  if (p.code !== 0) throw new Error(`ghz exited with ${p.code}: ${p.stderr.slice(-2000)}`);
  await Deno.writeTextFile(`${dir}/ghz-${round}.json`, p.stdout);
  const r = JSON.parse(p.stdout);
  const pct = (q: number) =>
    r.latencyDistribution.find((d: { percentage: number }) => d.percentage === q).latency / 1000;
  const measured = Object.values(r.statusCodeDistribution as Record<string, number>)
    .reduce((a, b) => a + b, 0);
  return {
    tool: "ghz",
    round,
    serviceP50Us: pct(50),
    serviceP99Us: pct(99),
    responseP50Us: NaN,
    responseP99Us: NaN,
    // ghz leaves the skipped calls out of its report, statuses included.
    completed: skip + measured,
    ok: skip + (r.statusCodeDistribution.OK ?? 0),
    received: p.received,
    cpuUsPerCall: p.cpuS * 1e6 / (skip + measured),
    steadyCpuUsPerCall: p.steadyCpuUsPerCall,
    otherCore1Pct: p.otherCore1Pct,
  };
}

const fmt = (x: number, digits = 0) =>
  Number.isFinite(x) ? x.toLocaleString("en-US", { maximumFractionDigits: digits }) : "-";

async function main() {
  Deno.addSignalListener("SIGINT", () => {
    killLive("SIGKILL");
    Deno.exit(130);
  });
  await Deno.writeTextFile(serverLog, "");
  const taken = await waitForPort(port, 100).then(() => true, () => false);
  if (taken) throw new Error(`something already listens on 127.0.0.1:${port}; pick --port`);
  const server = new Deno.Command("taskset", {
    args: [
      "-c",
      "0",
      "sh",
      "-c",
      'exec "$0" -port "$1" 2>>"$2"',
      `${values.bin}/greeter_server`,
      String(port),
      serverLog,
    ],
    stdin: "null",
    stdout: "null",
    stderr: "inherit",
  }).spawn();
  live.add(server.pid);
  await waitForPort(port, 3_000);
  console.log(
    `# greeter_server on core 0, tools on core 1; ${rate}/s, ${WARMUP_S}s warmup + ${secs}s, ` +
      `${conns} connections, ghz -c ${workers}, ${rounds} rounds; load ${loadAverage()}; ` +
      `${new Date().toISOString()}; raw results in ${dir}`,
  );
  const runs: Run[] = [];
  for (let round = 1; round <= rounds; round++) {
    const order = round % 2 ? [runTailgate, runGhz] : [runGhz, runTailgate];
    for (const run of order) {
      const r = await run(round);
      runs.push(r);
      console.log(
        `${r.tool} round ${round}: service p50 ${fmt(r.serviceP50Us)} p99 ${
          fmt(r.serviceP99Us)
        } µs` +
          `, response p50 ${fmt(r.responseP50Us)} p99 ${fmt(r.responseP99Us)} µs, ` +
          `${r.completed} completed (${r.ok} OK), greeter received ${r.received}, ` +
          `CPU ${fmt(r.cpuUsPerCall, 1)} µs/call (steady ${fmt(r.steadyCpuUsPerCall, 1)}), ` +
          `others on core 1 ${r.otherCore1Pct}%`,
      );
    }
  }
  console.log(`# end load ${loadAverage()}; ${new Date().toISOString()}`);
  await Deno.writeTextFile(`${dir}/runs.json`, JSON.stringify(runs, null, 2));
  report(runs);
  kill(server.pid, "SIGTERM");
  await server.status;
  live.delete(server.pid);
}

function report(runs: Run[]) {
  const of = (tool: string, round: number) =>
    runs.find((r) => r.tool === tool && r.round === round)!;
  console.log(
    "\n| round | tool | service p50 µs | service p99 µs | response p50 µs | response p99 µs " +
      "| completed | greeter received | CPU µs/call | steady CPU µs/call | others on core 1 |",
  );
  console.log("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
  for (const r of runs) {
    console.log(
      `| ${r.round} | ${r.tool} | ${fmt(r.serviceP50Us)} | ${fmt(r.serviceP99Us)} | ` +
        `${fmt(r.responseP50Us)} | ${fmt(r.responseP99Us)} | ${fmt(r.completed)} | ` +
        `${fmt(r.received)} | ${fmt(r.cpuUsPerCall, 1)} | ${fmt(r.steadyCpuUsPerCall, 1)} | ` +
        `${r.otherCore1Pct}% |`,
    );
  }
  const ratio = (f: (t: Run, g: Run) => number) =>
    median(Array.from({ length: rounds }, (_, i) => f(of("tailgate", i + 1), of("ghz", i + 1))));
  const rows: [string, number, string][] = [
    ["p50: tailgate service / ghz", ratio((t, g) => t.serviceP50Us / g.serviceP50Us), "≤ 1.25"],
    ["p50: tailgate response / ghz", ratio((t, g) => t.responseP50Us / g.serviceP50Us), "≤ 1.25"],
    ["p99: tailgate service / ghz", ratio((t, g) => t.serviceP99Us / g.serviceP99Us), ""],
    ["CPU per call: tailgate / ghz", ratio((t, g) => t.cpuUsPerCall / g.cpuUsPerCall), "≤ 1"],
    [
      "steady CPU per call: tailgate / ghz",
      ratio((t, g) => t.steadyCpuUsPerCall / g.steadyCpuUsPerCall),
      "",
    ],
  ];
  console.log("\n| median of same-round ratios | value | target |\n|---|---:|---|");
  for (const [name, value, target] of rows) {
    console.log(`| ${name} | ${fmt(value, 2)} | ${target} |`);
  }
  const mismatched = runs.filter((r) => r.received !== r.ok || r.ok !== r.completed);
  console.log(
    mismatched.length === 0
      ? "interop: in every run the greeter received exactly the calls the tool completed, all OK"
      : `interop: MISMATCH in ${mismatched.map((r) => `${r.tool} round ${r.round}`).join(", ")}`,
  );
}

try {
  await main();
} finally {
  killLive("SIGKILL");
}
