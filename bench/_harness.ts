/**
 * What the kept studies share (peers_compare.ts, truth_table.ts, slo_repeat.ts, verdict_noise.ts,
 * grpc_vs_ghz.ts): the C servers (servers/*.c) built and pinned to a core, every process a study
 * starts tracked and stopped by its PID, a bounded busy loop beside a core, CPU time and RSS from
 * /proc, each core's busy and steal ticks, the load average, and the median. The fixed-rate
 * yardstick against oha and wrk2 is `../shared/bench/peers.sh` (docs/benchmarks.md).
 *
 * @module
 */
import { ENGINE_V8_FLAGS } from "../runner/engine/v8_flags.ts";

/** Resolves after `ms`. */
export const sleep = (ms: number): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, ms));

/** Text of a process's output. */
export const decode = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);

/** PIDs of every process a study started and has not reaped; {@linkcode killLive} ends them. */
export const live: Set<number> = new Set();

/** Sends `signal` to `pid`, which may be gone already. */
export function kill(pid: number, signal: Deno.Signal): void {
  try {
    Deno.kill(pid, signal);
  } catch { /* already gone */ }
}

/** Ends every process in {@linkcode live} with `signal` (never by name) and forgets them. */
export function killLive(signal: Deno.Signal): void {
  for (const pid of live) kill(pid, signal);
  live.clear();
}

/** The median of the finite values of `xs`; NaN when there is none. */
export function median(xs: readonly number[]): number {
  const s = xs.filter(Number.isFinite).sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length === 0 ? NaN : s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/** The machine's load average (1, 5, 15 minutes) as /proc/loadavg has it. */
export function loadAverage(): string {
  return Deno.readTextFileSync("/proc/loadavg").split(" ").slice(0, 3).join(" ");
}

/**
 * Each core's busy, steal and total ticks, from /proc/stat. Busy includes irq and softirq: a tick
 * spent in softirq is also charged to the process it interrupted (here mostly the generator, whose
 * loopback TCP work it is), so leaving it out would hide other processes' share.
 */
export function coreTicks(): { busy: number; steal: number; total: number }[] {
  return Deno.readTextFileSync("/proc/stat").split("\n").filter((l) => /^cpu\d/.test(l))
    .map((line) => {
      const f = line.split(/\s+/).slice(1, 9).map(Number);
      return {
        busy: f[0] + f[1] + f[2] + f[5] + f[6],
        steal: f[7],
        total: f.reduce((a, b) => a + b, 0),
      };
    });
}

/** A process's CPU time (user + system, in clock ticks) and resident memory; undefined once gone. */
export function procStat(pid: number): { cpuTicks: number; rssKb: number } | undefined {
  try {
    const f = Deno.readTextFileSync(`/proc/${pid}/stat`).split(") ")[1].split(" ");
    const rss = /VmRSS:\s+(\d+)/.exec(Deno.readTextFileSync(`/proc/${pid}/status`))?.[1];
    return { cpuTicks: Number(f[11]) + Number(f[12]), rssKb: Number(rss ?? NaN) };
  } catch {
    return undefined; // exited
  }
}

/** The child whose parent is `ppid` (a generator under /usr/bin/time); waits up to ~2 s. */
export async function childOf(ppid: number): Promise<number> {
  for (let attempt = 0; attempt < 200; attempt++) {
    for (const entry of Deno.readDirSync("/proc")) {
      if (!/^\d+$/.test(entry.name)) continue;
      try {
        const f = Deno.readTextFileSync(`/proc/${entry.name}/stat`).split(") ")[1].split(" ");
        if (Number(f[1]) === ppid) return Number(entry.name);
      } catch { /* gone */ }
    }
    await sleep(10);
  }
  throw new Error(`no child of ${ppid} appeared`);
}

/** Resolves once 127.0.0.1:`port` accepts a connection; throws after `timeoutMs`. */
export async function waitForPort(port: number, timeoutMs = 1_000): Promise<void> {
  for (const until = Date.now() + timeoutMs; Date.now() < until;) {
    try {
      (await Deno.connect({ hostname: "127.0.0.1", port })).close();
      return;
    } catch {
      await sleep(20);
    }
  }
  throw new Error(`nothing listened on 127.0.0.1:${port}`);
}

/**
 * Builds servers/`name`.c (`cc -O2`) into `dir`; resolves with the binary's path. Binaries are
 * built at run time, never committed.
 */
export async function buildCServer(name: string, dir: string): Promise<string> {
  const binary = `${dir}/${name}`;
  const source = new URL(`./servers/${name}.c`, import.meta.url).pathname;
  const built = await new Deno.Command("cc", { args: ["-O2", "-o", binary, source] }).output();
  if (!built.success) throw new Error(decode(built.stderr));
  return binary;
}

/** A busy loop pinned to a core; `stop` ends it by its PID. */
export interface BusyLoop {
  pid: number;
  /** SIGTERM to `timeout` (which passes it to the loop), then waits for it. */
  stop(): Promise<void>;
}

/**
 * Starts a noisy neighbour: `taskset -c <core> timeout <maxSecs> sh -c 'while :; do :; done'`,
 * which ends by itself after `maxSecs` at the latest. Its PID is in {@linkcode live} until
 * stopped.
 */
export function startBusyLoop(core: string, maxSecs: number): BusyLoop {
  const child = new Deno.Command("taskset", {
    args: ["-c", core, "timeout", String(Math.ceil(maxSecs)), "sh", "-c", "while :; do :; done"],
    stdin: "null",
    stdout: "null",
    stderr: "null",
  }).spawn();
  live.add(child.pid);
  return {
    pid: child.pid,
    async stop() {
      kill(child.pid, "SIGTERM");
      await child.status;
      live.delete(child.pid);
    },
  };
}

/**
 * Builds servers/hello_epoll.c (`cc -O2`) into `dir` and starts it on `port`, pinned to `core`
 * (taskset); resolves once it listens. Its PID is in {@linkcode live}; a server that does not
 * listen is killed.
 */
export async function startCServer(
  port: number,
  dir: string,
  core = "0",
): Promise<Deno.ChildProcess> {
  const binary = await buildCServer("hello_epoll", dir);
  const server = new Deno.Command("taskset", {
    args: ["-c", core, binary, String(port)],
    stdout: "null",
    stderr: "inherit",
  }).spawn();
  live.add(server.pid);
  try {
    await waitForPort(port);
  } catch (error) {
    kill(server.pid, "SIGKILL");
    live.delete(server.pid);
    throw error;
  }
  return server;
}

/** A plan run by `tailgate run` on core 1 under /usr/bin/time: its CPU and its result. */
export interface TimedRun {
  /** User + system CPU over every completed request, µs. */
  cpuUsPerRequest: number;
  completed: number;
  // deno-lint-ignore no-explicit-any
  result: any;
}

/**
 * Runs `planPath` (seed 1, JSON only, no baseline) with the engine's V8 flags, pinned to core 1,
 * into `out`, and reads its CPU time and result. A run with a failed request measures nothing a
 * cost study can use: it throws, naming the errors.
 */
export async function timedPlanRun(planPath: string, out: string): Promise<TimedRun> {
  const cli = new URL("../cli.ts", import.meta.url).pathname;
  const done = await new Deno.Command("taskset", {
    args: [
      ...["-c", "1", "/usr/bin/time", "-f", "cpu %U %S"],
      ...[Deno.execPath(), "run", `--v8-flags=${ENGINE_V8_FLAGS}`, "-A", cli],
      ...["run", planPath, "--out", out, "--report", "json", "--no-baseline", "--seed", "1"],
    ],
    stdout: "null",
    stderr: "piped",
  }).output();
  const cpu = /cpu ([\d.]+) ([\d.]+)/.exec(decode(done.stderr));
  if (!cpu) throw new Error(`${planPath}: no CPU time\n${decode(done.stderr).slice(-2000)}`);
  const result = JSON.parse(await Deno.readTextFile(`${out}/result.json`));
  let completed = 0;
  let ok = 0;
  for (const s of result.stages) {
    completed += s.counts.completed;
    ok += s.counts.ok;
  }
  if (completed !== ok) {
    const errors = JSON.stringify(result.stages.at(-1).counts.errors);
    throw new Error(`${planPath}: ${completed - ok} of ${completed} requests failed: ${errors}`);
  }
  return {
    cpuUsPerRequest: (Number(cpu[1]) + Number(cpu[2])) * 1e6 / completed,
    completed,
    result,
  };
}
