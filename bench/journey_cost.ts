/**
 * What a journey costs the generator (issue 44): a two-step journey whose second step uses a value
 * captured from the first's body, at R journeys a second (2R requests), against a templated single
 * request at 2R requests a second, in the same rounds, alternating which goes first. Server: the C
 * server (bench/servers/hello_epoll.c) on core 0; each tailgate run on core 1. CPU per request is
 * the run's whole process (user + system, from /usr/bin/time) over every request it completed,
 * warmup included on both sides; the send lag is the result's (first steps and requests that found
 * a free connection: `health.sendLag`), read at p99.
 *
 *     npx -y deno@2.9.6 run -A bench/journey_cost.ts [--rate 5000] [--secs 10] [--rounds 3]
 *
 * Only 127.0.0.1 is loaded; the server is stopped by its PID, also on errors.
 *
 * @module
 */
import { join } from "node:path";
import { parseArgs } from "node:util";
import { ENGINE_V8_FLAGS } from "../runner/engine/v8_flags.ts";
import { decode, kill, live, loadAverage, median, startCServer } from "./_harness.ts";

const { values } = parseArgs({
  options: {
    rate: { type: "string", default: "5000" },
    secs: { type: "string", default: "10" },
    rounds: { type: "string", default: "3" },
    port: { type: "string", default: "18290" },
  },
});
const journeysPerSec = Number(values.rate);
const secs = Number(values.secs);
const rounds = Number(values.rounds);
const port = Number(values.port);
const root = new URL("../", import.meta.url).pathname;
const dir = await Deno.makeTempDir({ prefix: "tailgate-journey-cost-" });

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
  templated: plan("templated", 2 * journeysPerSec, '  - { name: one, path: "/a?u={{u}}" }'),
  // The journey: the same first request, its body kept and a value captured by regex, then a
  // second request that sends it.
  journey: plan(
    "journey",
    journeysPerSec,
    `  - journey: j
    steps:
      - { name: first, path: "/a?u={{u}}", capture: { w: { regex: "(h[a-z]+)" } } }
      - { name: second, path: "/b?w={{w}}" }`,
  ),
};

interface Row {
  cpuUsPerRequest: number;
  completed: number;
  sendLagP99Us: number;
  errors: number;
}

async function runOnce(name: keyof typeof PLANS, round: number): Promise<Row> {
  const planPath = join(dir, `${name}.yaml`);
  await Deno.writeTextFile(planPath, PLANS[name]);
  const out = join(dir, `${name}-${round}`);
  const done = await new Deno.Command("taskset", {
    args: [
      ...["-c", "1", "/usr/bin/time", "-f", "cpu %U %S"],
      ...[Deno.execPath(), "run", `--v8-flags=${ENGINE_V8_FLAGS}`, "-A", join(root, "cli.ts")],
      ...["run", planPath, "--out", out, "--report", "json", "--no-baseline", "--seed", "1"],
    ],
    stdout: "null",
    stderr: "piped",
  }).output();
  const cpu = /cpu ([\d.]+) ([\d.]+)/.exec(decode(done.stderr));
  if (!cpu) throw new Error(`${name}: no CPU time\n${decode(done.stderr).slice(-2000)}`);
  const r = JSON.parse(await Deno.readTextFile(join(out, "result.json")));
  let completed = 0;
  let ok = 0;
  for (const s of r.stages) {
    completed += s.counts.completed;
    ok += s.counts.ok;
  }
  return {
    cpuUsPerRequest: (Number(cpu[1]) + Number(cpu[2])) * 1e6 / completed,
    completed,
    sendLagP99Us: r.health.sendLag.percentilesUs["99"],
    errors: completed - ok,
  };
}

const server = await startCServer(port, dir);
try {
  console.log(
    `journey cost: ${journeysPerSec} journeys/s (2 steps) against ${
      2 * journeysPerSec
    } templated requests/s, ${secs} s + 2 s warmup, ${rounds} rounds; load average ${loadAverage()}`,
  );
  const ratios: number[] = [];
  const lags: Record<string, number[]> = { templated: [], journey: [] };
  for (let round = 1; round <= rounds; round++) {
    const order = round % 2 ? ["templated", "journey"] as const : ["journey", "templated"] as const;
    const rows: Partial<Record<string, Row>> = {};
    for (const name of order) {
      const row = await runOnce(name, round);
      rows[name] = row;
      lags[name].push(row.sendLagP99Us);
      console.log(
        `round ${round} ${name.padEnd(9)} ${row.cpuUsPerRequest.toFixed(1)} us/request, ` +
          `${row.completed} requests (${row.errors} failed), send lag p99 ${row.sendLagP99Us} us`,
      );
    }
    ratios.push(rows.journey!.cpuUsPerRequest / rows.templated!.cpuUsPerRequest);
  }
  console.log(
    `median CPU per request, journey / templated: ${median(ratios).toFixed(2)} ` +
      `(rounds: ${ratios.map((x) => x.toFixed(2)).join(", ")}); send lag p99 median: ` +
      `templated ${median(lags.templated)} us, journey ${median(lags.journey)} us; ` +
      `load average at the end ${loadAverage()}`,
  );
} finally {
  kill(server.pid, "SIGTERM");
  await server.status;
  live.delete(server.pid);
  await Deno.remove(dir, { recursive: true });
}
