/**
 * Evidence for windowed SLOs, fail-fast and the implicit error gate (issue 29, docs/gates.md):
 * each case is one `tailgate run` against the built-in target on core 0 (tailgate on core 1),
 * printed with its exit code, wall time and verdicts.
 *
 * - **episode**: a server that freezes for 300 ms once (every 45 s), judged by `p99 < 50ms` over
 *   the 60 s stage and by `p99 < 50ms over 10s`.
 * - **fail-fast**: a 60 s plan against a server failing 5% of its answers, `error_rate < 1%`,
 *   with and without `--fail-fast`.
 * - **rejected**: a plan without SLOs against a server failing every answer.
 *
 *     npx -y deno@2.9.6 run -A bench/episode_study.ts
 *
 * Only 127.0.0.1 is loaded; each target is stopped by its PID.
 *
 * @module
 */
import { join } from "node:path";
import { ENGINE_V8_FLAGS } from "../runner/engine/v8_flags.ts";
import { loadAverage } from "./_neighbour.ts";
import { waitForPort } from "./_wait_port.ts";

const root = new URL("../", import.meta.url).pathname;
const cli = join(root, "cli.ts");
const deno = Deno.execPath();
const dir = await Deno.makeTempDir({ prefix: "tailgate-episode-study-" });
let port = 19800;

async function runCase(
  name: string,
  targetArgs: string[],
  plan: (port: number) => string,
  extra: string[] = [],
): Promise<Record<string, unknown>> {
  const p = port++;
  const target = new Deno.Command("taskset", {
    args: ["-c", "0", deno, "run", "-A", cli, "target", ...targetArgs, "--port", String(p)],
    stdout: "null",
    stderr: "null",
  }).spawn();
  try {
    await waitForPort(p);
    const file = join(dir, `${name}.yaml`);
    await Deno.writeTextFile(file, plan(p));
    const out = join(dir, name);
    const started = performance.now();
    const run = await new Deno.Command("taskset", {
      args: [
        ...["-c", "1", deno, "run", `--v8-flags=${ENGINE_V8_FLAGS}`, "-A", cli, "run", file],
        ...["--out", out, "--no-baseline", ...extra],
      ],
      stdout: "null",
      stderr: "null",
    }).output();
    const wallS = (performance.now() - started) / 1000;
    const result = JSON.parse(await Deno.readTextFile(join(out, "result.json")));
    return {
      case: name,
      exit: run.code,
      wallS: +wallS.toFixed(1),
      stopReason: result.run.stopReason,
      verdict: result.verdict.status,
      gates: result.verdicts.map((v: { status: string; name: string; message: string }) =>
        `${v.status} ${v.name}: ${v.message.slice(0, 220)}`
      ),
    };
  } finally {
    target.kill("SIGTERM");
    await target.status;
  }
}

const plan = (body: string) => (p: number) =>
  `name: study\ntarget: http://127.0.0.1:${p}\nrequests: [{ path: / }]\n${body}`;
const report: Record<string, unknown> = { loadBefore: await loadAverage() };
const cases = [
  await runCase(
    "episode",
    ["--mode", "stall", "--stall", "300ms", "--period", "45s"],
    plan(`load:
  connections: 64
  stages:
    - { name: warm, rate: 1k/s, duration: 2s, warmup: true }
    - { name: steady, rate: 1k/s, duration: 60s }
slo:
  - p99 < 50ms
  - p99 < 50ms over 10s
`),
  ),
];
for (const failFast of [false, true]) {
  cases.push(
    await runCase(
      failFast ? "faults-fail-fast" : "faults",
      ["--mode", "faults", "--fault-frac", "5%", "--faults", "500"],
      plan(`load:
  connections: 16
  stages:
    - { name: warm, rate: 200/s, duration: 1s, warmup: true }
    - { name: steady, rate: 200/s, duration: 60s }
slo: [error_rate < 1%]
`),
      failFast ? ["--fail-fast"] : [],
    ),
  );
}
cases.push(
  await runCase(
    "rejected",
    ["--mode", "faults", "--fault-frac", "100%", "--faults", "500"],
    plan(`load:
  stages:
    - { name: warm, rate: 200/s, duration: 1s, warmup: true }
    - { name: steady, rate: 200/s, duration: 10s }
`),
  ),
);
report.cases = cases;
report.loadAfter = await loadAverage();
console.log(JSON.stringify(report, null, 1));
await Deno.remove(dir, { recursive: true });
