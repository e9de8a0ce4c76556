/**
 * One candidate HTTP/2 client at a fixed rate, for bench/h2_client_compare.py: `node` (node:http2,
 * one session per connection) or `fetch` (`Deno.createHttpClient({ http2: true, http1: false })`,
 * one client per connection). Open model: request i is due at start + i / rate, woken by the
 * engine's Atomics waker; a request that finds every stream busy waits in a FIFO, and its response
 * time counts from its intended send. Prints one JSON line: counts, response-time and service-time
 * percentiles (µs) of the measured part (after `--warmup` s), and the CPU of that part.
 *
 *     deno run -A bench/h2_candidate.ts --client node --url http://127.0.0.1:PORT/index.html \
 *       --rate 2000 --secs 8 --warmup 2 --conns 10 --streams 10
 *
 * Bounded: the schedule ends after warmup + secs, and the process exits 5 s after at the latest.
 *
 * @module
 */
import http2 from "node:http2";
import process from "node:process";
import { createAtomicsWaker } from "../runner/engine/timing/mod.ts";

const args = new Map<string, string>();
for (let i = 2; i < Deno.args.length + 2; i += 2) {
  args.set(Deno.args[i - 2].replace(/^--/, ""), Deno.args[i - 1]);
}
const client = args.get("client") ?? "node";
const url = new URL(args.get("url") ?? "http://127.0.0.1:8080/");
const rate = Number(args.get("rate") ?? 1000);
const secs = Number(args.get("secs") ?? 8);
const warmupS = Number(args.get("warmup") ?? 2);
const conns = Number(args.get("conns") ?? 10);
const streams = Number(args.get("streams") ?? 10);
const total = Math.round(rate * (secs + warmupS));
const warmupN = Math.round(rate * warmupS);

type Send = (conn: number, done: (status: number) => void) => void;

function nodeClient(): Send {
  const sessions = Array.from(
    { length: conns },
    () => http2.connect(url.origin, { settings: { initialWindowSize: 16 << 20 } }),
  );
  for (const s of sessions) s.on("error", () => {});
  const headers = {
    ":method": "GET",
    ":path": url.pathname,
    ":authority": url.host,
    ":scheme": url.protocol.slice(0, -1),
  };
  return (conn, done) => {
    let status = 0;
    const stream = sessions[conn].request(headers, { endStream: true });
    stream.on("response", (h) => status = Number(h[":status"]));
    stream.on("data", () => {});
    stream.on("error", () => {});
    stream.on("close", () => done(stream.rstCode === 0 ? status : 0));
  };
}

function fetchClient(): Send {
  const clients = Array.from(
    { length: conns },
    () => Deno.createHttpClient({ http2: true, http1: false }),
  );
  return (conn, done) => {
    fetch(url, { client: clients[conn] }).then(async (r) => {
      await r.arrayBuffer();
      done(r.status);
    }, () => done(0));
  };
}

const send = client === "fetch" ? fetchClient() : nodeClient();
const waker = await createAtomicsWaker();
const responseUs = new Float64Array(total);
const serviceUs = new Float64Array(total);
const busy = new Int32Array(conns);
const queue: number[] = [];
let errors = 0;
let completed = 0;
let next = 0;
// Warm the connections (and node's sessions' SETTINGS) before the schedule.
await new Promise((r) => setTimeout(r, 300));
const startMs = performance.now() + 20;
let cpuAtWarmupEnd: NodeJS.CpuUsage | undefined;

function start(i: number, conn: number): void {
  busy[conn]++;
  const sentMs = performance.now();
  send(conn, (status) => {
    const nowMs = performance.now();
    busy[conn]--;
    completed++;
    if (status !== 200) errors++;
    responseUs[i] = (nowMs - (startMs + i * 1000 / rate)) * 1000;
    serviceUs[i] = (nowMs - sentMs) * 1000;
    const queued = queue.shift();
    if (queued !== undefined) start(queued, conn);
    if (completed === total) waker.interrupt();
  });
}

function freeConn(): number {
  for (let c = 0; c < conns; c++) {
    const k = (next + c) % conns;
    if (busy[k] < streams) return k;
  }
  return -1;
}

const hardStop = setTimeout(() => Deno.exit(3), (secs + warmupS + 5) * 1000);
for (let i = 0; i < total;) {
  const now = performance.now();
  while (i < total && startMs + i * 1000 / rate <= now) {
    if (i === warmupN) cpuAtWarmupEnd = process.cpuUsage();
    const conn = freeConn();
    if (conn < 0) queue.push(i);
    else start(i, conn);
    next++;
    i++;
  }
  if (i < total) await waker.sleepUntil(startMs + i * 1000 / rate);
}
while (completed < total) await waker.sleepUntil(performance.now() + 50);
clearTimeout(hardStop);
const cpu = process.cpuUsage(cpuAtWarmupEnd);
waker.close();

function pct(values: Float64Array, p: number): number {
  const sorted = values.slice(warmupN).sort();
  return Math.round(sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * p / 100) - 1)]);
}
console.log(JSON.stringify({
  client,
  rate,
  completed,
  errors,
  measured: total - warmupN,
  cpuUsPerReq: (cpu.user + cpu.system) / (total - warmupN),
  response: [pct(responseUs, 50), pct(responseUs, 99), pct(responseUs, 99.9)],
  service: [pct(serviceUs, 50), pct(serviceUs, 99), pct(serviceUs, 99.9)],
}));
Deno.exit(0);
