/**
 * How precisely, and at what CPU cost, the engine thread can be woken for a schedule of deadlines:
 * 50 us apart (20k requests/s) or 1 ms apart (1k/s, where nothing coalesces, so lag is the pure
 * wake lateness), woken by
 *   (a) a setTimeout(0) or setTimeout(1) tick loop,
 *   (b) the Atomics waker with 1 ns timer slack, (c) the Atomics waker with the default slack,
 *   (d) the Atomics waker with a 50 us minimum gap instead of 250 us (no coalescing at 20k/s).
 * Send lag = wake time − due time, per request and per wake (earliest due request of the wake).
 * Also: how a deadline that is already past should resolve (microtask, MessageChannel or a
 * self-notified `Atomics.waitAsync`): its latency, and how long a pending socket read waits.
 *
 * Each variant runs in its own process pinned with `taskset -c 1` (pass --no-pin to skip).
 * Run with `deno run -A bench/waker_precision.ts [--seconds 5] [--rounds 1] [--no-pin]`.
 *
 * @module
 */
import process from "node:process";
import { parseArgs } from "node:util";
import { createAtomicsWaker } from "../runner/engine/timing/atomics_waker.ts";

interface Variant {
  intervalUs: number;
  /** setTimeout delay of a tick loop; undefined for the Atomics waker. */
  tickMs?: number;
  timerSlackNs?: number;
  minGapUs?: number;
}

const VARIANTS: Record<string, Variant> = {
  "setTimeout(0) tick": { intervalUs: 50, tickMs: 0 },
  "setTimeout(1) tick": { intervalUs: 50, tickMs: 1 },
  "atomics, slack 1ns": { intervalUs: 50, timerSlackNs: 1 },
  "atomics, no slack": { intervalUs: 50, timerSlackNs: 0 },
  "atomics, gap 50us": { intervalUs: 50, timerSlackNs: 1, minGapUs: 50 },
  "1k/s atomics 1ns": { intervalUs: 1000, timerSlackNs: 1 },
  "1k/s atomics no slack": { intervalUs: 1000, timerSlackNs: 0 },
};

interface Row {
  requests: number;
  wakes: number;
  requestLagUs: number[];
  wakeLagUs: number[];
  cpuUsPerWake: number;
  cpuUsPerRequest: number;
  idleCpuUsPerSec: number;
  timerSlackSet?: boolean;
}

const { values } = parseArgs({
  options: {
    variant: { type: "string" },
    seconds: { type: "string", default: "5" },
    rounds: { type: "string", default: "1" },
    "no-pin": { type: "boolean", default: false },
  },
});
const seconds = Math.min(Math.max(Number(values.seconds), 0.5), 60);

if (values.variant === "past") console.log(JSON.stringify(await pastDeadline()));
else if (values.variant) console.log(JSON.stringify(await runSchedule(VARIANTS[values.variant])));
else await parent(Math.min(Math.max(Number(values.rounds), 1), 10));

async function parent(rounds: number): Promise<void> {
  const cpus = navigator.hardwareConcurrency;
  console.log(`load average before: ${Deno.loadavg().join(" ")}; ${cpus} CPUs; ${seconds} s each`);
  console.log(
    "variant                   lag per request, us: p50    p99  p99.9    max | per wake: p50   p99" +
      " |  wakes cpu/wake cpu/req idle cpu/s",
  );
  for (let round = 0; round < rounds; round++) {
    for (const name of Object.keys(VARIANTS)) {
      const r = JSON.parse(await child(name)) as Row;
      const [a, b, c, d] = r.requestLagUs.map((v) => v.toFixed(0).padStart(6));
      const [w50, w99] = r.wakeLagUs.map((v) => v.toFixed(0).padStart(5));
      const slack = r.timerSlackSet === false && name.includes("1ns") ? " (slack NOT set)" : "";
      console.log(
        `${name.padEnd(25)} ${" ".repeat(17)}${a} ${b} ${c} ${d} | ${
          " ".repeat(8)
        }${w50} ${w99} | ` +
          `${String(r.wakes).padStart(6)} ${r.cpuUsPerWake.toFixed(1).padStart(5)}us ` +
          `${r.cpuUsPerRequest.toFixed(2).padStart(5)}us ${r.idleCpuUsPerSec.toFixed(0)}us${slack}`,
      );
    }
  }
  console.log("\nalready-past deadline: resolution latency, and sleeps before a ready read runs");
  console.log(await child("past"));
  console.log(`\nload average after: ${Deno.loadavg().join(" ")}`);
}

async function child(variant: string): Promise<string> {
  const self = ["run", "-A", new URL(import.meta.url).pathname, "--variant", variant];
  const args = [...self, "--seconds", String(seconds)];
  const command = values["no-pin"]
    ? new Deno.Command(Deno.execPath(), { args })
    : new Deno.Command("taskset", { args: ["-c", "1", Deno.execPath(), ...args] });
  const out = await command.output();
  if (out.code !== 0) throw new Error(new TextDecoder().decode(out.stderr));
  return new TextDecoder().decode(out.stdout).trim();
}

function percentilesUs(lagMs: Float64Array, count: number): number[] {
  const sorted = lagMs.slice(0, count).sort();
  const at = (q: number) => sorted[Math.min(count - 1, Math.floor(q * count))] * 1000;
  return [at(0.5), at(0.99), at(0.999), sorted[count - 1] * 1000];
}

function cpuUs(): number {
  const { user, system } = process.cpuUsage();
  return user + system;
}

async function runSchedule(variant: Variant): Promise<Row> {
  const waker = variant.tickMs === undefined
    ? await createAtomicsWaker({ timerSlackNs: variant.timerSlackNs, minGapUs: variant.minGapUs })
    : undefined;
  const tick = () => new Promise((resolve) => setTimeout(resolve, variant.tickMs));
  const intervalMs = variant.intervalUs / 1000;
  const requests = Math.round(seconds * 1000 / intervalMs);
  const requestLagMs = new Float64Array(requests);
  const wakeLagMs = new Float64Array(requests);
  const startMs = performance.now() + 20;
  let next = 0;
  let wakes = 0;
  let lagged = 0;
  const cpuBefore = cpuUs();
  while (next < requests) {
    const dueMs = startMs + next * intervalMs;
    await (waker ? waker.sleepUntil(dueMs) : tick());
    wakes++;
    const nowMs = performance.now();
    if (dueMs <= nowMs) wakeLagMs[lagged++] = nowMs - dueMs;
    for (; next < requests && startMs + next * intervalMs <= nowMs; next++) {
      requestLagMs[next] = nowMs - (startMs + next * intervalMs);
    }
  }
  const cpuSpentUs = cpuUs() - cpuBefore;
  // Nothing pending: what the process (and the worker) burn idle, once V8 has settled.
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const idleBefore = cpuUs();
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const idleCpuUsPerSec = cpuUs() - idleBefore;
  waker?.close();
  return {
    requests,
    wakes,
    requestLagUs: percentilesUs(requestLagMs, requests),
    wakeLagUs: percentilesUs(wakeLagMs, lagged).slice(0, 2),
    cpuUsPerWake: cpuSpentUs / wakes,
    cpuUsPerRequest: cpuSpentUs / requests,
    idleCpuUsPerSec,
    timerSlackSet: waker?.timerSlackSet,
  };
}

/** Latency of resolving an already-past sleep, and its fairness to a pending socket read. */
async function pastDeadline(): Promise<Record<string, string>> {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const client = await Deno.connect({ hostname: "127.0.0.1", port: listener.addr.port });
  const server = await listener.accept();
  const channel = new MessageChannel();
  let onMessage: () => void = () => {};
  channel.port1.onmessage = () => onMessage();
  const waker = await createAtomicsWaker();
  const ways: Record<string, () => Promise<unknown>> = {
    microtask: () => Promise.resolve(),
    messageChannel: () =>
      new Promise<void>((resolve) => {
        onMessage = resolve;
        channel.port2.postMessage(null);
      }),
    atomicsWaker: () => waker.sleepUntil(0),
  };
  const report: Record<string, string> = {};
  for (const [name, resolvePast] of Object.entries(ways)) {
    const latencyMs = new Float64Array(2000);
    for (let i = 0; i < latencyMs.length; i++) {
      const t = performance.now();
      await resolvePast();
      latencyMs[i] = performance.now() - t;
    }
    const [p50, p99] = percentilesUs(latencyMs, latencyMs.length);
    let sleeps = 0;
    let readAfter = -1;
    const read = client.read(new Uint8Array(8)).then(() => readAfter = sleeps);
    await server.write(new Uint8Array([1]));
    const t = performance.now();
    for (; sleeps < 20_000 && readAfter < 0; sleeps++) await resolvePast();
    const spentMs = performance.now() - t;
    report[name] = `p50 ${p50.toFixed(1)} us, p99 ${p99.toFixed(1)} us; read ran after ` +
      (readAfter < 0 ? `>20000 sleeps` : `${readAfter} sleeps (${spentMs.toFixed(2)} ms)`);
    await read;
  }
  waker.close();
  channel.port1.close();
  client.close();
  server.close();
  listener.close();
  return report;
}
