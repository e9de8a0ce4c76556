/**
 * Evidence for `tailgate ab`'s defaults (issue 29, written up in docs/gates.md): how many rounds,
 * of how many requests, keep identical builds green at least 19 times in 20 and find a 20% slower
 * build at least 19 times in 20, with a busy neighbour half the time?
 *
 * 1. **Pools.** For each case (`same`: base and head the built-in fixed-delay target at 5 ms;
 *    `slower`: head at 6 ms, +20% at p50 and p99), `--pools` runs of `tailgate ab --rounds R` with
 *    a plan of `--requests` per round at 1k/s after a 0.5 s warmup, whose `regression` names every
 *    metric at its default floor (so every round's figures are kept). A busy loop on `--hog-core`
 *    is on 7 s, off 7 s throughout, out of step with the runs.
 * 2. **Resampling.** For k rounds (`--ks`), `--draws` random sets of k sound rounds of a case are
 *    judged with the product's own paired rule (`judgePaired`, Holm over the checks) under two
 *    default sets: the old one (with `max`) and the new one (without). Identical builds "pass"
 *    when every check is ok; a slower build is "found" when p50 or p99 regresses.
 * 3. **Validation** (`--validate N`): N real `tailgate ab` runs per case at the code's default
 *    rounds and the plan's default metrics, with their verdicts and exit codes.
 *
 *     npx -y deno@2.9.6 run -A bench/ab_defaults_study.ts [--requests 2000] [--rounds 24]
 *       [--pools 2] [--ks 5,8,10,12] [--draws 2000] [--validate 0] [--hog-core 0] [--pool FILE]
 *
 * Targets run on core 0, tailgate on core 1; only 127.0.0.1 is loaded; every process started
 * here is stopped by its PID (the neighbour by its own bounded timeout too).
 *
 * @module
 */
import { join } from "node:path";
import { parseArgs } from "node:util";
import { ENGINE_V8_FLAGS } from "../runner/engine/v8_flags.ts";
import { judgePaired, type PairedCheck } from "../runner/gates/ab/paired_comparison.ts";
import { isSufficient } from "../runner/gates/stats/tail_samples.ts";
import { loadAverage, startNeighbour } from "./_neighbour.ts";
import { mulberry32 } from "../runner/ab/round_order.ts";

const { values } = parseArgs({
  options: {
    requests: { type: "string", default: "2000" },
    rounds: { type: "string", default: "24" },
    pools: { type: "string", default: "2" },
    ks: { type: "string", default: "5,8,10,12" },
    draws: { type: "string", default: "2000" },
    validate: { type: "string", default: "0" },
    "hog-core": { type: "string", default: "0" },
    // Analyse pools measured before (the JSON this study printed) instead of measuring.
    pool: { type: "string" },
  },
});
const requests = Number(values.requests);
const root = new URL("../", import.meta.url).pathname;
const cli = join(root, "cli.ts");
const deno = Deno.execPath();
const dir = await Deno.makeTempDir({ prefix: "tailgate-ab-defaults-" });

/** The floors of every metric (the defaults' values; `max` at the 20% it had). */
const ALL_FLOORS: Record<string, number> = {
  p50: 0.10,
  p99: 0.10,
  "p99.9": 0.20,
  max: 0.20,
  error_rate: 0.001,
  throughput: 0.05,
};
const OLD = ["p50", "p99", "p99.9", "max", "error_rate", "throughput"];
const NEW = ["p50", "p99", "p99.9", "error_rate", "throughput"];

function planText(named: boolean): string {
  const seconds = requests / 1000;
  return `name: ab-defaults-study
target: http://127.0.0.1:1
requests: [{ path: / }]
load:
  connections: 16
  stages:
    - { name: warmup, rate: 1k/s, duration: 500ms, warmup: true }
    - { name: steady, rate: 1k/s, duration: ${seconds}s }
slo: [p99 < 100ms]
${
    named
      ? `regression: { ${
        OLD.map((m) => `${m}: ${+(ALL_FLOORS[m] * 100).toFixed(3)}%`).join(", ")
      } }\n`
      : ""
  }`;
}

const targetCommand = (delay: string, port: number) =>
  `exec taskset -c 0 ${deno} run -A ${cli} target --mode fixed --delay ${delay} --port ${port}`;

let port = 19600;
async function ab(
  plan: string,
  headDelay: string,
  seed: number,
  rounds?: number,
): Promise<{ code: number; ab?: AbJson; stderr: string }> {
  const base = port++;
  const head = port++;
  const out = join(dir, `ab-${headDelay}-${seed}-${rounds ?? "default"}`);
  const r = await new Deno.Command("taskset", {
    args: [
      ...["-c", "1", deno, "run", `--v8-flags=${ENGINE_V8_FLAGS}`, "-A", cli, "ab", plan],
      ...["--base", `http://127.0.0.1:${base}`, "--head", `http://127.0.0.1:${head}`],
      ...["--base-start", targetCommand("5ms", base)],
      ...["--head-start", targetCommand(headDelay, head)],
      ...(rounds === undefined ? [] : ["--rounds", String(rounds)]),
      ...["--seed", String(seed), "--out", out],
    ],
    cwd: dir,
    stdout: "null",
    stderr: "piped",
  }).output();
  const text = await Deno.readTextFile(join(out, "ab.json")).catch(() => undefined);
  return {
    code: r.code,
    ...(text === undefined ? {} : { ab: JSON.parse(text) }),
    stderr: new TextDecoder().decode(r.stderr).slice(-400),
  };
}

interface AbJson {
  comparisons: Array<
    { metric: string; base: number[]; head: number[]; status: string; change: number }
  >;
  verdict: { status: string };
}

/** Every sound round's figures per metric: `pool[metric] = { base: [], head: [] }`. */
type Pool = Record<string, { base: number[]; head: number[] }>;

async function measurePools(): Promise<Record<string, Pool>> {
  const plan = join(dir, "named.yaml");
  await Deno.writeTextFile(plan, planText(true));
  const pools: Record<string, Pool> = {};
  for (const [name, delay] of [["same", "5ms"], ["slower", "6ms"]]) {
    const pool: Pool = {};
    for (let i = 0; i < Number(values.pools); i++) {
      const r = await ab(plan, delay, 100 + i, Number(values.rounds));
      if (r.ab === undefined) throw new Error(`ab did not finish (exit ${r.code}): ${r.stderr}`);
      for (const c of r.ab.comparisons) {
        pool[c.metric] ??= { base: [], head: [] };
        pool[c.metric].base.push(...c.base);
        pool[c.metric].head.push(...c.head);
      }
      console.error(`pool ${name} ${i + 1}: ${pool.p50?.base.length ?? 0} sound rounds so far`);
    }
    pools[name] = pool;
  }
  return pools;
}

/** The share of draws of k rounds that pass (same) or find the slowdown (slower). */
function resample(pool: Pool, k: number, metrics: string[], draws: number, seed: number) {
  const random = mulberry32(seed);
  const n = pool.p50.base.length;
  const judged = metrics.filter((m) => {
    const q = m.startsWith("p") ? Number(m.slice(1)) : undefined;
    // A default tail metric a round cannot support is skipped, as `ab` skips it.
    return q === undefined || isSufficient(requests, q);
  });
  let pass = 0, fail = 0, found = 0;
  for (let d = 0; d < draws; d++) {
    const picks = new Set<number>();
    while (picks.size < Math.min(k, n)) picks.add(Math.floor(random() * n));
    const at = [...picks];
    const checks: PairedCheck[] = judged.map((m) => ({
      base: at.map((i) => pool[m].base[i]),
      head: at.map((i) => pool[m].head[i]),
      scale: m === "error_rate" ? "difference" : "ratio",
      higherIsWorse: m !== "throughput",
      floor: ALL_FLOORS[m],
    }));
    const outcomes = judgePaired(checks);
    if (outcomes.every((o) => o.status === "pass")) pass++;
    if (outcomes.some((o) => o.status === "fail")) fail++;
    if (outcomes.some((o, i) => o.status === "fail" && ["p50", "p99"].includes(judged[i]))) found++;
  }
  return { pass: pass / draws, anyFail: fail / draws, found: found / draws, metrics: judged };
}

const hog = startNeighbour(values["hog-core"]!);
const report: Record<string, unknown> = { requests, loadBefore: await loadAverage() };
try {
  const pools = values.pool
    ? JSON.parse(await Deno.readTextFile(values.pool)).pools as Record<string, Pool>
    : await measurePools();
  report.pools = pools;
  report.roundsPooled = Object.fromEntries(
    Object.entries(pools).map(([k, p]) => [k, p.p50.base.length]),
  );
  const table = [];
  for (const k of values.ks!.split(",").map(Number)) {
    for (const [set, metrics] of [["old (with max)", OLD], ["new (no max)", NEW]] as const) {
      const same = resample(pools.same, k, [...metrics], Number(values.draws), k);
      const slower = resample(pools.slower, k, [...metrics], Number(values.draws), k + 1);
      table.push({
        k,
        set,
        metrics: same.metrics.join(" "),
        samePass: same.pass,
        sameFalseAlarm: same.anyFail,
        slowerFound: slower.found,
      });
    }
  }
  report.resampled = table;
  console.error(table.map((r) => JSON.stringify(r)).join("\n"));
  const validate = Number(values.validate);
  if (validate > 0) {
    const plan = join(dir, "defaults.yaml");
    await Deno.writeTextFile(plan, planText(false));
    const runs: Record<string, Array<{ code: number; status?: string; changes?: string[] }>> = {};
    for (const [name, delay] of [["same", "5ms"], ["slower", "6ms"]]) {
      runs[name] = [];
      for (let t = 0; t < validate; t++) {
        const r = await ab(plan, delay, 1000 + t);
        const changes = r.ab?.comparisons.map((c) =>
          `${c.metric} ${(c.change * 100).toFixed(1)}% ${c.status}`
        );
        runs[name].push({ code: r.code, status: r.ab?.verdict.status, changes });
        console.error(`validate ${name} ${t + 1}: exit ${r.code} ${changes?.join("; ")}`);
      }
    }
    report.validation = Object.fromEntries(
      Object.entries(runs).map(([name, rs]) => [name, {
        exitCodes: rs.map((r) => r.code),
        verdicts: rs.map((r) => r.status),
        changes: rs.map((r) => r.changes),
      }]),
    );
  }
} finally {
  await hog.stop();
}
report.loadAfter = await loadAverage();
report.hogPeriods = hog.periods();
console.log(JSON.stringify(report));
await Deno.remove(dir, { recursive: true });
