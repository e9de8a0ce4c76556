/**
 * Which HTTP client should the engine send with? Measures closed-loop maximum throughput and CPU
 * time per request of (a) `fetch`, (b) `node:http` with a keep-alive Agent and (c) tailgate's
 * Http1Connection, each with the same number of connections against the small C epoll server
 * bench/servers/hello_epoll.c, and wrk for reference when it is installed. Results: docs/engine.md.
 *
 * Each client runs in a fresh Deno process (this script with `--client NAME`) pinned to core 1,
 * the server on core 0. Run:
 *
 *     taskset -c 1 npx -y deno@2.9.6 run -A bench/http_client_compare.ts --rounds 3
 *
 * Options: --port 18080 --connections 50 --duration-s 5 --warmup-s 1 --rounds 1.
 * Needs `cc` and `taskset`; only ever loads 127.0.0.1.
 *
 * @module
 */
import http from "node:http";
import process from "node:process";
import { parseArgs } from "node:util";
import { Http1Connection } from "../runner/engine/socket/http1_connection.ts";
import { prepareRequest } from "../runner/engine/http1/http1_request.ts";
import { PERFORMANCE_CLOCK, type ResponseOutcome } from "../runner/engine/types.ts";

/** Upper bound on requests per client and run, so no loop is unbounded. */
const MAX_REQUESTS = 50_000_000;

interface Measurement {
  client: string;
  requests: number;
  errors: number;
  ratePerSec: number;
  cpuUsPerRequest: number;
}

/**
 * One request of a closed-loop worker: false, or an outcome with an error or a status other than
 * 200, is a failure.
 */
type Worker = () => Promise<boolean | ResponseOutcome>;

const { values } = parseArgs({
  options: {
    port: { type: "string", default: "18080" },
    connections: { type: "string", default: "50" },
    "duration-s": { type: "string", default: "5" },
    "warmup-s": { type: "string", default: "1" },
    rounds: { type: "string", default: "1" },
    client: { type: "string" },
  },
});
const port = Number(values.port);
const connections = Number(values.connections);
const durationMs = Number(values["duration-s"]) * 1000;
const warmupMs = Number(values["warmup-s"]) * 1000;
const rounds = Number(values.rounds);
const url = `http://127.0.0.1:${port}/`;

/** Runs `connections` workers for `warmupMs`, then measures for `durationMs`. */
async function measure(client: string, makeWorker: () => Worker): Promise<Measurement> {
  const workers = Array.from({ length: connections }, makeWorker);
  let phaseEndMs = performance.now() + warmupMs;
  let requests = 0;
  let errors = 0;
  const loop = async (worker: Worker) => {
    while (performance.now() < phaseEndMs && requests < MAX_REQUESTS) {
      const result = await worker();
      if (result === false || (result !== true && (result.error || result.status !== 200))) {
        errors++;
      }
      requests++;
    }
  };
  await Promise.all(workers.map(loop));
  requests = 0;
  errors = 0;
  const cpuBefore = process.cpuUsage();
  const startMs = performance.now();
  phaseEndMs = startMs + durationMs;
  await Promise.all(workers.map(loop));
  const elapsedMs = performance.now() - startMs;
  const cpu = process.cpuUsage(cpuBefore);
  return {
    client,
    requests,
    errors,
    ratePerSec: requests / (elapsedMs / 1000),
    cpuUsPerRequest: (cpu.user + cpu.system) / requests,
  };
}

function fetchWorker(): Worker {
  return async () => {
    const response = await fetch(url);
    await response.arrayBuffer();
    return response.status === 200;
  };
}

function nodeHttpWorker(agent: http.Agent): () => Worker {
  return () => () =>
    new Promise((resolve) => {
      const req = http.get(url, { agent }, (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode === 200));
      });
      req.on("error", () => resolve(false));
    });
}

function http1Worker(all: Http1Connection[]): () => Worker {
  const request = prepareRequest({
    label: "GET /",
    method: "GET",
    url,
    headers: [],
    weight: 1,
    timeoutMs: 5_000,
    expect: { codes: [200], classes: [] },
  }, 0);
  return () => {
    const connection = new Http1Connection({ url: new URL(url), clock: PERFORMANCE_CLOCK });
    all.push(connection);
    return () => connection.send(request);
  };
}

/** wrk on core 1 for the same duration; its CPU time is read from the shell's `times`. */
async function measureWrk(): Promise<Measurement | undefined> {
  const found = await new Deno.Command("which", { args: ["wrk"], stdout: "null" }).output();
  if (!found.success) return undefined;
  const seconds = Math.round(durationMs / 1000);
  const script = `taskset -c 1 wrk -t1 -c${connections} -d${seconds}s ${url}; times`;
  const out = await new Deno.Command("bash", { args: ["-c", script], stdout: "piped" }).output();
  const text = new TextDecoder().decode(out.stdout);
  const requests = Number(/(\d+) requests in/.exec(text)?.[1] ?? NaN);
  const ratePerSec = Number(/Requests\/sec:\s+([\d.]+)/.exec(text)?.[1] ?? NaN);
  const errors = Number(/Non-2xx or 3xx responses: (\d+)/.exec(text)?.[1] ?? 0);
  const times = text.trim().split("\n").at(-1)!.split(/\s+/).map(minutesSeconds);
  return {
    client: "wrk",
    requests,
    errors,
    ratePerSec,
    cpuUsPerRequest: (times[0] + times[1]) * 1e6 / requests,
  };
}

/** `0m1.234s` → 1.234 */
function minutesSeconds(text: string): number {
  const m = /(\d+)m([\d.]+)s/.exec(text);
  return m ? Number(m[1]) * 60 + Number(m[2]) : NaN;
}

async function startServer(dir: string): Promise<Deno.ChildProcess> {
  const binary = `${dir}/hello_epoll`;
  const source = new URL("./servers/hello_epoll.c", import.meta.url).pathname;
  const built = await new Deno.Command("cc", { args: ["-O2", "-o", binary, source] }).output();
  if (!built.success) throw new Error(new TextDecoder().decode(built.stderr));
  const server = new Deno.Command("taskset", {
    args: ["-c", "0", binary, String(port)],
    stdout: "null",
    stderr: "inherit",
  }).spawn();
  for (let attempt = 0; attempt < 50; attempt++) { // up to ~1 s for the port to open
    try {
      (await Deno.connect({ hostname: "127.0.0.1", port })).close();
      return server;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
  server.kill("SIGKILL");
  await server.status;
  throw new Error(`hello_epoll did not listen on port ${port}`);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

function loadAverage(): string {
  return Deno.readTextFileSync("/proc/loadavg").split(" ").slice(0, 3).join(" ");
}

/** Measures one client in a fresh Deno process on core 1. */
async function measureInChild(client: string): Promise<Measurement> {
  const args = ["-c", "1", Deno.execPath(), "run", "-A", new URL(import.meta.url).pathname];
  for (const name of ["port", "connections", "duration-s", "warmup-s"] as const) {
    args.push(`--${name}`, String(values[name]));
  }
  const out = await new Deno.Command("taskset", {
    args: [...args, "--client", client],
    stdout: "piped",
    stderr: "inherit",
  }).output();
  if (!out.success) throw new Error(`the ${client} client failed`);
  return JSON.parse(new TextDecoder().decode(out.stdout));
}

/** The client processes' side: measure one client, print the measurement as JSON. */
async function runClient(client: string): Promise<void> {
  let result: Measurement;
  if (client === "fetch") result = await measure("fetch", fetchWorker);
  else if (client === "node-http") {
    const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
    result = await measure("node:http keep-alive Agent", nodeHttpWorker(agent));
    agent.destroy();
  } else if (client === "http1") {
    const all: Http1Connection[] = [];
    result = await measure("Http1Connection", http1Worker(all));
    for (const connection of all) connection.close();
  } else throw new Error(`unknown client ${client}: use fetch, node-http or http1`);
  console.log(JSON.stringify(result));
}

async function coordinate(): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "tailgate-bench-" });
  const server = await startServer(dir).catch(async (error) => {
    await Deno.remove(dir, { recursive: true });
    throw error;
  });
  try {
    const cpuinfo = Deno.readTextFileSync("/proc/cpuinfo");
    const cpus = cpuinfo.match(/^processor\s*:/gm)?.length;
    const cpuModel = /model name\s*:\s*(.*)/.exec(cpuinfo)?.[1];
    console.log(`# ${cpus} cpus (${cpuModel}), each generator on cpu 1, server on cpu 0`);
    console.log(
      `# Deno ${Deno.version.deno}, ${connections} connections, ${durationMs / 1000} s each`,
    );
    console.log("| client | req/s | CPU µs/request | requests | errors | load avg (1/5/15 min) |");
    console.log("| --- | ---: | ---: | ---: | ---: | --- |");
    const byClient = new Map<string, Measurement[]>();
    for (let round = 0; round < rounds; round++) {
      for (const client of ["fetch", "node-http", "http1", "wrk"]) {
        const r = client === "wrk" ? await measureWrk() : await measureInChild(client);
        if (r === undefined) continue;
        byClient.set(r.client, [...(byClient.get(r.client) ?? []), r]);
        console.log(
          `| ${r.client} | ${Math.round(r.ratePerSec)} | ${r.cpuUsPerRequest.toFixed(1)} | ` +
            `${r.requests} | ${r.errors} | ${loadAverage()} |`,
        );
      }
    }
    if (rounds > 1) {
      console.log("\n| client | median req/s | median CPU µs/request |\n| --- | ---: | ---: |");
      for (const [client, all] of byClient) {
        const rate = median(all.map((r) => r.ratePerSec));
        const cpu = median(all.map((r) => r.cpuUsPerRequest));
        console.log(`| ${client} | ${Math.round(rate)} | ${cpu.toFixed(1)} |`);
      }
    }
  } finally {
    server.kill("SIGTERM");
    await server.status;
    await Deno.remove(dir, { recursive: true });
  }
}

if (values.client !== undefined) await runClient(values.client);
else await coordinate();
