/**
 * What `trace: true` costs the generator per request, over a whole run (issue 47): the same plan
 * with and without `trace`, a fixed GET and a templated one (a uuid in the path, rendered ahead),
 * in the same rounds, the order rotated each round. Server: the C server
 * (bench/servers/hello_epoll.c) on core 0; each tailgate run on core 1. CPU per request is the
 * run's whole process (user + system, from /usr/bin/time) over every request it completed, warmup
 * included on both sides; the send lag is the result's `health.sendLag` at p99. The per-send cost
 * alone is bench/micro/trace_stamp_bench.ts's.
 *
 *     deno run -A bench/trace_cost.ts [--rate 5000] [--secs 10] [--rounds 3]
 *                                     [--plans fixed,fixed_traced,templated,templated_traced]
 *
 * Only 127.0.0.1 is loaded; the server is stopped by its PID, also on errors.
 *
 * @module
 */
import { join } from "node:path";
import { parseArgs } from "node:util";

import { kill, live, loadAverage, median, startCServer, timedPlanRun } from "./_harness.ts";

const { values } = parseArgs({
  options: {
    rate: { type: "string", default: "5000" },
    secs: { type: "string", default: "10" },
    rounds: { type: "string", default: "3" },
    port: { type: "string", default: "18291" },
    plans: { type: "string", default: "fixed,fixed_traced,templated,templated_traced" },
  },
});
const rate = Number(values.rate);
const secs = Number(values.secs);
const rounds = Number(values.rounds);
const port = Number(values.port);
const dir = await Deno.makeTempDir({ prefix: "tailgate-trace-cost-" });

/** A plan of `request` at the rate: a 2 s warmup, then `secs` measured; `trace` on or not. */
const plan = (name: string, request: string, trace: boolean) =>
  `name: ${name}
target: http://127.0.0.1:${port}
${trace ? "trace: true\n" : ""}vars: { u: uuid }
requests:
  - ${request}
load:
  connections: 50
  stages:
    - { rate: ${rate}/s, duration: 2s, warmup: true }
    - { rate: ${rate}/s, duration: ${secs}s }
`;

const FIXED = "{ name: one, path: /index.html }";
const TEMPLATED = '{ name: one, path: "/index.html?u={{u}}" }';
const PLANS = {
  fixed: plan("fixed", FIXED, false),
  fixed_traced: plan("fixed_traced", FIXED, true),
  templated: plan("templated", TEMPLATED, false),
  templated_traced: plan("templated_traced", TEMPLATED, true),
};

interface Row {
  cpuUsPerRequest: number;
  completed: number;
  sendLagP99Us: number;
}

async function runOnce(name: keyof typeof PLANS, round: number): Promise<Row> {
  const planPath = join(dir, `${name}.yaml`);
  await Deno.writeTextFile(planPath, PLANS[name]);
  const out = join(dir, `${name}-${round}`);
  const { cpuUsPerRequest, completed, result: r } = await timedPlanRun(planPath, out);
  const traced = r.stages.at(-1).labels[0].slowest?.[0]?.traceId !== undefined;
  if (traced !== name.endsWith("_traced")) throw new Error(`${name}: trace ids ${traced}`);
  return {
    cpuUsPerRequest,
    completed,
    sendLagP99Us: r.health.sendLag.percentilesUs["99"],
  };
}

const server = await startCServer(port, dir);
try {
  console.log(
    `trace cost: ${rate} requests/s against the C server, ${secs} s + 2 s warmup, ${rounds} ` +
      `rounds; load average ${loadAverage()}`,
  );
  const names = values.plans.split(",") as (keyof typeof PLANS)[];
  for (const name of names) if (!(name in PLANS)) throw new Error(`no plan ${name}`);
  const rows: Record<string, Row[]> = Object.fromEntries(names.map((n) => [n, []]));
  for (let round = 1; round <= rounds; round++) {
    const order = names.map((_, i) => names[(i + round - 1) % names.length]);
    for (const name of order) {
      const row = await runOnce(name, round);
      rows[name].push(row);
      console.log(
        `round ${round} ${name.padEnd(16)} ${row.cpuUsPerRequest.toFixed(2)} us/request, ` +
          `${row.completed} requests, send lag p99 ${row.sendLagP99Us} us`,
      );
    }
  }
  const cpu = (name: string) => median(rows[name].map((r) => r.cpuUsPerRequest)).toFixed(2);
  const lag = (name: string) => median(rows[name].map((r) => r.sendLagP99Us));
  console.log(
    `medians: ${
      names.map((n) => `${n} ${cpu(n)} us/request, send lag p99 ${lag(n)} us`).join("; ")
    }`,
  );
  // Same-round differences (traced − not), then their median: the cost per request in us.
  for (const base of ["fixed", "templated"]) {
    const traced = `${base}_traced`;
    if (!(base in rows) || !(traced in rows)) continue;
    const diffs = rows[traced].map((r, i) => r.cpuUsPerRequest - rows[base][i].cpuUsPerRequest);
    const ratios = rows[traced].map((r, i) => r.cpuUsPerRequest / rows[base][i].cpuUsPerRequest);
    console.log(
      `${traced} − ${base}: median ${median(diffs).toFixed(2)} us/request ` +
        `(ratio ${median(ratios).toFixed(3)}), rounds ${diffs.map((d) => d.toFixed(2)).join(", ")}`,
    );
  }
  console.log(`load average at the end ${loadAverage()}`);
} finally {
  kill(server.pid, "SIGTERM");
  await server.status;
  live.delete(server.pid);
  await Deno.remove(dir, { recursive: true });
}
