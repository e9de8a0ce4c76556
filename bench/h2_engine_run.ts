/**
 * tailgate's engine over HTTP/2 at a fixed rate, for bench/h2_client_compare.py and profiling: a
 * plan with `load.http: 2` run through runWorkers, as `tailgate run` runs it (`--ca FILE` trusts
 * a certificate for an https URL; `TAILGATE_IO` picks the I/O path). Prints one JSON line: completed requests, failures, the measured
 * stage's corrected response time and service time (µs), the CPU of the run.
 *
 *     deno run -A --v8-flags=--min-semi-space-size=16,--max-semi-space-size=16 \
 *       bench/h2_engine_run.ts --url http://127.0.0.1:PORT/index.html --rate 2000 --secs 8 \
 *       --warmup 2 --conns 10 --streams 10
 *
 * @module
 */
import { runWorkers } from "../runner/run/run_workers.ts";
import { parsePlan } from "../runner/plan/mod.ts";

const args = new Map<string, string>();
for (let i = 0; i + 1 < Deno.args.length; i += 2) {
  args.set(Deno.args[i].replace(/^--/, ""), Deno.args[i + 1]);
}
const url = new URL(args.get("url") ?? "http://127.0.0.1:8080/");
const rate = Number(args.get("rate") ?? 1000);
const text = `name: h2
target: ${url.origin}
requests: [{ path: ${url.pathname} }]
load:
  http: 2
  max_streams: ${args.get("streams") ?? 10}
  connections: ${args.get("conns") ?? 10}
  stages:
    - { rate: ${rate}/s, duration: ${args.get("warmup") ?? 2}s, warmup: true }
    - { rate: ${rate}/s, duration: ${args.get("secs") ?? 8}s }
`;
const parsed = parsePlan("h2.yaml", new TextEncoder().encode(text), {
  env: () => undefined,
  fileSize: () => undefined,
  planDir: ".",
  requireEnv: false,
});
if (!parsed.plan) throw new Error(JSON.stringify(parsed.issues));
const plan = parsed.plan;
const ca = args.get("ca");
const run = await runWorkers({ plan, ...(ca ? { caCerts: [Deno.readTextFileSync(ca)] } : {}) });
const stage = run.recorded.stages[1];
const p = (h: { percentilesUs: Record<string, number> }) =>
  ["50", "99", "99.9"].map((k) => h.percentilesUs[k]);
const completed = run.recorded.stages.reduce((n, s) => n + s.counts.completed, 0);
console.log(JSON.stringify({
  completed,
  errors: completed - run.recorded.stages.reduce((n, s) => n + s.counts.ok, 0),
  cpuUsPerReq: (run.cpu.userMs + run.cpu.systemMs) * 1000 / completed,
  response: p(stage.response),
  service: p(stage.service),
}));
