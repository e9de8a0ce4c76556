/**
 * The contention probe (docs/engine.md, "CPU contention"), measured two ways:
 *
 * - **cost**: the probe's own thread (found by its SCHED_BATCH policy) sampling for `--seconds`
 *   beside the server, its CPU time from its schedstat: µs of CPU per second of run;
 * - **busy**: `tailgate run` on core 1 against the server on core 0 for `--seconds` at `--rate`,
 *   once quiet and once beside a busy loop pinned to core 0 (`timeout` bounds it), each second's
 *   `serviceWaitMs` and `pressureMs` read from result.json.
 *
 * The server is the C server (servers/hello_epoll.c) on core 0, or `--target URL` of one already
 * running (nginx). Only 127.0.0.1 is loaded; every process started is stopped by its PID.
 *
 *     npx -y deno@2.9.6 run -A bench/contention_probe.ts [--seconds 20] [--rate 2k/s]
 *       [--target http://127.0.0.1:18080/] [--part cost|busy|both]
 *
 * @module
 */
import { join } from "node:path";
import { parseArgs } from "node:util";
import { ENGINE_V8_FLAGS } from "../runner/engine/v8_flags.ts";
import { startContentionProbe } from "../runner/run/contention_probe.ts";
import type { RunResult } from "../runner/model/run_result.ts";
import { kill, live, loadAverage, median, sleep, startCServer } from "./_harness.ts";

const { values } = parseArgs({
  options: {
    seconds: { type: "string", default: "20" },
    rate: { type: "string", default: "2k/s" },
    port: { type: "string", default: "18290" },
    target: { type: "string" },
    part: { type: "string", default: "both" },
  },
});
const seconds = Number(values.seconds);
const root = new URL("../", import.meta.url).pathname;
const dir = await Deno.makeTempDir({ prefix: "tailgate-contention-" });
const target = values.target ??
  (await startCServer(Number(values.port), dir), `http://127.0.0.1:${values.port}/`);

/** This process's SCHED_BATCH thread (the probe's) and its CPU time so far (ns). */
function batchThreadCpuNs(): { tid: string; cpuNs: number } | undefined {
  for (const task of Deno.readDirSync("/proc/self/task")) {
    const stat = Deno.readTextFileSync(`/proc/self/task/${task.name}/stat`);
    const policy = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[38]);
    if (policy !== 3) continue;
    const [cpuNs] = Deno.readTextFileSync(`/proc/self/task/${task.name}/schedstat`).split(" ");
    return { tid: task.name, cpuNs: Number(cpuNs) };
  }
  return undefined;
}

async function cost(): Promise<void> {
  const probe = startContentionProbe({ url: target });
  if (!probe) throw new Error("the probe runs on Linux only");
  await probe.ready;
  probe.alignTo(performance.timeOrigin + performance.now() + 10);
  const before = batchThreadCpuNs();
  const startedMs = performance.now();
  await sleep(seconds * 1000);
  const after = batchThreadCpuNs();
  const elapsedS = (performance.now() - startedMs) / 1000;
  const record = await probe.stop();
  probe.close();
  if (!before || !after) throw new Error("no SCHED_BATCH thread: was FFI allowed?");
  const perSecondUs = (after.cpuNs - before.cpuNs) / 1000 / elapsedS;
  const threads = record?.service ? `${record.service.name}, pids ${record.service.pids}` : "none";
  console.log(
    `cost: ${perSecondUs.toFixed(1)} us CPU per second (${(perSecondUs / 1e4).toFixed(4)}% of a ` +
      `core) over ${elapsedS.toFixed(1)} s, ${record?.samples.length} samples; service: ${threads}`,
  );
}

/** One `tailgate run` on core 1; `busy`: beside a loop pinned to core 0. */
async function run(name: string, busy: boolean): Promise<void> {
  const out = join(dir, name);
  // `timeout` bounds the loop; a SIGTERM to it (below) ends the loop too, a SIGKILL would not.
  const loop = busy
    ? new Deno.Command("taskset", {
      args: ["-c", "0", "timeout", String(seconds + 15), "sh", "-c", "while :; do :; done"],
      stdout: "null",
      stderr: "null",
    }).spawn()
    : undefined;
  if (loop) live.add(loop.pid);
  try {
    const tailgate = await new Deno.Command("taskset", {
      args: [
        "-c",
        "1",
        Deno.execPath(),
        "run",
        `--v8-flags=${ENGINE_V8_FLAGS}`,
        "-A",
        join(root, "cli.ts"),
        "run",
        target,
        "--rate",
        values.rate!,
        "--duration",
        `${seconds}s`,
        "--connections",
        "20",
        "--out",
        out,
        "--no-baseline",
        "--report",
        "json",
      ],
      stdout: "null",
      stderr: "inherit",
    }).output();
    if (!tailgate.success && tailgate.code !== 1) throw new Error(`${name}: exit ${tailgate.code}`);
  } finally {
    if (loop) {
      kill(loop.pid, "SIGTERM");
      live.delete(loop.pid);
      await loop.status;
    }
  }
  const result = JSON.parse(await Deno.readTextFile(join(out, "result.json"))) as RunResult;
  const c = result.health.contention;
  const each = (key: "serviceWaitMs" | "pressureMs") =>
    result.intervals.filter((i) => i.counts.scheduled > 0).map((i) => i.contention?.[key] ?? NaN);
  const wait = each("serviceWaitMs");
  const pressure = each("pressureMs");
  const round = (xs: number[]) => xs.map((x) => Math.round(x)).join(" ");
  console.log(`${name}: each second's serviceWaitMs ${round(wait)}; pressureMs ${round(pressure)}`);
  const p999 = result.stages[0].response.percentilesUs["99.9"];
  console.log(
    `${name}: source ${c?.source} (${c?.service?.name ?? "-"}); per second serviceWaitMs median ` +
      `${median(wait)} [${Math.min(...wait)}..${Math.max(...wait)}], pressureMs median ` +
      `${median(pressure)} [${Math.min(...pressure)}..${Math.max(...pressure)}]; run: service ` +
      `wait ${c?.serviceWaitMs} ms, pressure ${c?.pressureMs} ms, steal ${c?.stealMs} ms, share ` +
      `${c?.share}; p99.9 ${(p999 / 1000).toFixed(2)} ms`,
  );
}

try {
  console.log(`load average ${loadAverage()}; target ${target}`);
  if (values.part !== "busy") await cost();
  if (values.part !== "cost") {
    await run("quiet", false);
    await run("busy", true);
  }
} finally {
  for (const pid of live) kill(pid, "SIGTERM"); // the server, a loop's `timeout`
  live.clear();
  await Deno.remove(dir, { recursive: true });
}
