/**
 * What a journey costs the generator (issue 44): a two-step journey whose second step uses a value
 * captured from the first's body, at R journeys a second (2R requests), against a templated single
 * request at 2R requests a second, and the same request with what a capture costs (its body kept, a
 * check running the capture's regular expression), in the same rounds, rotating the order. Server: nginx
 * (one worker, `hello world`, as the yardstick ../shared/bench/peers.sh runs it) or the C server
 * (bench/servers/hello_epoll.c) on core 0; each tailgate run on core 1. CPU per request is
 * the run's whole process (user + system, from /usr/bin/time) over every request it completed,
 * warmup included on both sides; the send lag is the result's (first steps and requests that found
 * a free connection: `health.sendLag`) and the later steps' (`health.stepLag`), read at p99.
 *
 *     npx -y deno@2.9.6 run -A bench/journey_cost.ts [--rate 5000] [--secs 10] [--rounds 3]
 *                                                     [--server nginx|c]
 *
 * Only 127.0.0.1 is loaded; the server is stopped by its PID, also on errors.
 *
 * @module
 */
import { join } from "node:path";
import { parseArgs } from "node:util";
import {
  kill,
  live,
  loadAverage,
  median,
  startCServer,
  timedPlanRun,
  waitForPort,
} from "./_harness.ts";

const { values } = parseArgs({
  options: {
    rate: { type: "string", default: "5000" },
    secs: { type: "string", default: "10" },
    rounds: { type: "string", default: "3" },
    port: { type: "string", default: "18290" },
    server: { type: "string", default: "nginx" },
    // The plans to run, by name: the three the target compares, or any of the controls below.
    plans: { type: "string", default: "templated,checked,journey" },
  },
});
const journeysPerSec = Number(values.rate);
const secs = Number(values.secs);
const rounds = Number(values.rounds);
const port = Number(values.port);
const dir = await Deno.makeTempDir({ prefix: "tailgate-journey-cost-" });
// nginx's worker runs as another user: it must reach the page (as peers.sh's `chmod 755`).
await Deno.chmod(dir, 0o755);

/** A plan around `requests` at `rate` a second: a 2 s warmup, then `secs` measured. */
const plan = (name: string, rate: number, requests: string) =>
  `name: ${name}
target: http://127.0.0.1:${port}
vars: { u: uuid }
requests:
${requests}
load:
  connections: 50
  stages:
    - { rate: ${rate}/s, duration: 2s, warmup: true }
    - { rate: ${rate}/s, duration: ${secs}s }
`;

const PLANS = {
  // Today's templated request: a uuid drawn into the path, at the journeys' request rate.
  templated: plan(
    "templated",
    2 * journeysPerSec,
    '  - { name: one, path: "/index.html?u={{u}}" }',
  ),
  // The same with what a capture costs: its body kept and the capture's regular expression run on
  // it (as a check): "today's templated requests plus the capture".
  checked: plan(
    "checked",
    2 * journeysPerSec,
    '  - { name: one, path: "/index.html?u={{u}}", check: { body: { matches: "(h[a-z]+)" } } }',
  ),
  // The journey: the same first request, its body kept and a value captured by regex, then a
  // second request that sends it.
  journey: plan(
    "journey",
    journeysPerSec,
    `  - journey: j
    steps:
      - { name: first, path: "/index.html?u={{u}}", capture: { w: { regex: "(h[a-z]+)" } } }
      - { name: second, path: "/index.html?w={{w}}" }`,
  ),
  // Controls, to say where a journey's cost goes. Two templated requests in the mix (two labels,
  // as the journey's two steps), at the journeys' request rate:
  two_labels: plan(
    "two_labels",
    2 * journeysPerSec,
    `  - { name: first, path: "/index.html?u={{u}}" }
  - { name: second, path: "/index.html?w={{u}}" }`,
  ),
  // The journey without its capture: its second step sends the journey's drawn uuid.
  journey_plain: plan(
    "journey_plain",
    journeysPerSec,
    `  - journey: j
    steps:
      - { name: first, path: "/index.html?u={{u}}" }
      - { name: second, path: "/index.html?w={{u}}" }`,
  ),
};

interface Row {
  cpuUsPerRequest: number;
  completed: number;
  sendLagP99Us: number;
  /** Journeys' later steps (`health.stepLag`); NaN for a plan without journeys. */
  stepLagP99Us: number;
  errors: number;
}

async function runOnce(name: keyof typeof PLANS, round: number): Promise<Row> {
  const planPath = join(dir, `${name}.yaml`);
  await Deno.writeTextFile(planPath, PLANS[name]);
  const out = join(dir, `${name}-${round}`);
  const { cpuUsPerRequest, completed, result: r } = await timedPlanRun(planPath, out);
  return {
    cpuUsPerRequest,
    completed,
    sendLagP99Us: r.health.sendLag.percentilesUs["99"],
    stepLagP99Us: r.health.stepLag?.percentilesUs["99"] ?? NaN,
    errors: 0,
  };
}

/** nginx, one worker on core 0, serving `hello world` (peers.sh's configuration). */
async function startNginx(): Promise<Deno.ChildProcess> {
  await Deno.mkdir(join(dir, "www"), { recursive: true });
  await Deno.mkdir(join(dir, "logs"), { recursive: true });
  await Deno.writeTextFile(join(dir, "www", "index.html"), "hello world");
  await Deno.writeTextFile(
    join(dir, "nginx.conf"),
    `worker_processes 1;
daemon off;
error_log ${dir}/logs/error.log warn;
pid ${dir}/nginx.pid;
events { worker_connections 4096; }
http {
  access_log off;
  keepalive_requests 10000000;
  keepalive_timeout 300s;
  server { listen 127.0.0.1:${port}; root ${dir}/www; location / { } }
}
`,
  );
  const child = new Deno.Command("taskset", {
    args: ["-c", "0", "nginx", "-c", join(dir, "nginx.conf"), "-p", dir],
    stdout: "null",
    stderr: "null",
  }).spawn();
  live.add(child.pid);
  await waitForPort(port, 5_000);
  return child;
}

const server = values.server === "c" ? await startCServer(port, dir) : await startNginx();
try {
  console.log(
    `journey cost: ${journeysPerSec} journeys/s (2 steps) against ${
      2 * journeysPerSec
    } templated requests/s against ${values.server}, ${secs} s + 2 s warmup, ${rounds} rounds; ` +
      `load average ${loadAverage()}`,
  );
  const names = values.plans.split(",") as (keyof typeof PLANS)[];
  for (const name of names) if (!(name in PLANS)) throw new Error(`no plan ${name}`);
  const rows: Record<string, Row[]> = Object.fromEntries(names.map((n) => [n, []]));
  for (let round = 1; round <= rounds; round++) {
    // Each round in another order: the plans as given, then rotated by one.
    const order = names.map((_, i) => names[(i + round - 1) % names.length]);
    for (const name of order) {
      const row = await runOnce(name, round);
      rows[name].push(row);
      console.log(
        `round ${round} ${name.padEnd(9)} ${row.cpuUsPerRequest.toFixed(1)} us/request, ` +
          `${row.completed} requests (${row.errors} failed), send lag p99 ${row.sendLagP99Us} us` +
          (row.stepLagP99Us === row.stepLagP99Us ? `, step lag p99 ${row.stepLagP99Us} us` : ""),
      );
    }
  }
  // Same-round ratios, then their median.
  const ratio = (a: string, b: string) =>
    median(rows[a].map((r, i) => r.cpuUsPerRequest / rows[b][i].cpuUsPerRequest));
  const cpu = (name: string) => median(rows[name].map((r) => r.cpuUsPerRequest)).toFixed(1);
  const lag = (name: string) => median(rows[name].map((r) => r.sendLagP99Us));
  const of = (name: string) => `${name} ${cpu(name)} us/request, send lag p99 ${lag(name)} us`;
  console.log(`medians: ${names.map(of).join("; ")}`);
  const ratios = (a: string, bs: string[]) =>
    a in rows
      ? bs.filter((b) => b in rows).map((b) => `${a} / ${b} ${ratio(a, b).toFixed(2)}`)
      : [];
  const pairs = [
    ...ratios("journey", ["checked", "templated", "journey_plain"]),
    ...ratios("journey_plain", ["templated", "two_labels"]),
    ...ratios("two_labels", ["templated"]),
  ];
  console.log(
    `medians of same-round CPU ratios: ${
      pairs.join(", ")
    }; load average at the end ${loadAverage()}`,
  );
} finally {
  kill(server.pid, "SIGTERM");
  await server.status;
  live.delete(server.pid);
  await Deno.remove(dir, { recursive: true });
}
