/**
 * The stall finder against the chart, on a loaded machine: `tailgate demo` (the built-in target
 * frozen 1 s in every 5 s, plans/demo.yaml) beside `--loops` busy loops pinned round-robin to the
 * cores (each bounded by `timeout`), `--runs` times. For each run it prints the load average, each
 * measured stage's stalls as the time-domain analysis found them (the "over time" lines the
 * reports print) and the freezes the latency chart's max line shows: runs of seconds whose max is
 * over half the freeze, counted in the stage they began in. The two counts should agree. Beside
 * them, what the floor alone finds (over max(5× the stage's p50, 20 ms), consecutive seconds
 * merged: the rule before the finder read the stage's own seconds).
 *
 *     deno run -A bench/stall_count.ts [--loops 1] [--runs 3]
 *
 * Only 127.0.0.1 is loaded (the demo's own target); every process started is stopped by its PID.
 *
 * @module
 */
import { join } from "node:path";
import { parseArgs } from "node:util";
import { ENGINE_V8_FLAGS } from "../runner/engine/v8_flags.ts";
import type { RunResult } from "../runner/model/run_result.ts";
import { timeDomainLines } from "../reporters/figures/mod.ts";
import { stallThresholdUs } from "../runner/result/time_domain.ts";
import { kill, live, loadAverage, startBusyLoop } from "./_harness.ts";

const { values } = parseArgs({
  options: {
    loops: { type: "string", default: "1" },
    runs: { type: "string", default: "3" },
  },
});
const loops = Number(values.loops);
const runs = Number(values.runs);
const root = new URL("../", import.meta.url).pathname;
const dir = await Deno.makeTempDir({ prefix: "tailgate-stalls-" });
/** The demo lasts 34 s; one that has not ended by then is stopped. */
const DEMO_LIMIT_MS = 90_000;
/** A second on the chart is frozen when its max is over half the demo target's 1 s freeze. */
const FROZEN_US = 500_000;

/** The chart's freezes per measured stage: runs of frozen seconds, by the stage they began in. */
function chartFreezes(result: RunResult): Map<string, number[]> {
  const byStage = new Map(result.stages.filter((s) => !s.warmup).map((s) => [s.index, s.name]));
  const found = new Map<string, number[]>();
  let previous = false;
  for (const i of result.intervals) {
    const frozen = i.response.maxUs > FROZEN_US;
    const name = byStage.get(i.stageIndex);
    if (frozen && !previous && name !== undefined) {
      found.set(name, [...found.get(name) ?? [], i.startMs / 1000]);
    }
    previous = frozen;
  }
  return found;
}

/** A stage's stall starts by the floor alone, consecutive seconds merged (the earlier rule). */
function floorStalls(result: RunResult, stage: RunResult["stages"][number]): number[] {
  const floorUs = stallThresholdUs(stage.response.percentilesUs["50"] ?? 0);
  const starts: number[] = [];
  let previous = false;
  for (const i of result.intervals.filter((i) => i.stageIndex === stage.index)) {
    const over = (i.intendedPerSec > 0 && i.completedPerSec === 0) || i.response.maxUs > floorUs;
    if (over && !previous) starts.push(i.startMs / 1000);
    previous = over;
  }
  return starts;
}

async function demo(run: number): Promise<void> {
  const out = join(dir, `run${run}`);
  const cores = navigator.hardwareConcurrency;
  const busy = Array.from({ length: loops }, (_, k) => startBusyLoop(String(k % cores), 60));
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", `--v8-flags=${ENGINE_V8_FLAGS}`, "-A", join(root, "cli.ts"), "demo", out],
    stdout: "null",
    stderr: "inherit",
  }).spawn();
  live.add(child.pid);
  const limit = setTimeout(() => kill(child.pid, "SIGTERM"), DEMO_LIMIT_MS);
  const status = await child.status;
  clearTimeout(limit);
  live.delete(child.pid);
  const load = loadAverage();
  for (const loop of busy) await loop.stop();
  if (status.code !== 0 && status.code !== 1) throw new Error(`demo ${run}: exit ${status.code}`);
  const result = JSON.parse(await Deno.readTextFile(join(out, "result.json"))) as RunResult;
  const chart = chartFreezes(result);
  console.log(`run ${run}: ${loops} busy loop(s), load average ${load}`);
  for (const stage of result.stages.filter((s) => !s.warmup)) {
    const stalls = stage.timeDomain?.stalls.map((s) => s.startMs / 1000) ?? [];
    const freezes = chart.get(stage.name) ?? [];
    const agree = stalls.join() === freezes.join() ? "agree" : "DIFFER";
    console.log(
      `  ${stage.name}: ${stalls.length} stalls at [${stalls}] s, threshold ${
        (stage.timeDomain?.stallThresholdUs ?? 0) / 1000
      } ms; chart: ${freezes.length} freezes at [${freezes}] s: ${agree}; the floor alone: ` +
        `[${floorStalls(result, stage)}] s`,
    );
  }
  for (const line of timeDomainLines(result)) console.log(`  over time: ${line}`);
}

try {
  for (let run = 1; run <= runs; run++) await demo(run);
} finally {
  for (const pid of live) kill(pid, "SIGTERM"); // a demo, a loop's `timeout`
  live.clear();
  await Deno.remove(dir, { recursive: true });
}
