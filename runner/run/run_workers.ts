/**
 * Runs a plan on one thread or spread across Web Workers (`load.workers`). Each worker runs an
 * interleaved share of the schedule from the same start instant; their records merge exactly,
 * and the union of their schedules is the plan's schedule. The native I/O path always runs in
 * workers (one at least), since its loop blocks the thread it runs on.
 *
 * @module
 */
import { mixLabels } from "../plan/mod.ts";
import process from "node:process";
import type { ResolvedPlan } from "../plan/mod.ts";
import { mergeRecordedRuns } from "../recorder/mod.ts";
import { TallySum } from "../recorder/mod.ts";
import type { ShardSpec } from "../schedule/mod.ts";
import { type EngineRun, type Progress, runEngine } from "./run_engine.ts";
import type { FromEngineWorker, ToEngineWorker } from "./engine_worker.ts";
import { ioChoice, nativeTarget } from "../engine/mod.ts";
import { startSideWorkers } from "./start_side_workers.ts";
import { collectGarbage, MAIN_THREAD_GC_PERIOD_MS } from "../engine/mod.ts";
import { type ContentionProbe, startContentionProbe } from "./contention_probe.ts";
import { firstBodySamples } from "../engine/mod.ts";

/** How far ahead of "now" workers start their schedule once all are ready (ms). */
const START_LEAD_MS = 20;

/** Options of {@linkcode runWorkers}. */
export interface RunWorkersOptions {
  plan: ResolvedPlan;
  /** This run's share of the plan (a `--shard i/n` of a sharded run); workers divide it further. */
  shard?: ShardSpec;
  signal?: AbortSignal;
  onProgress?: (progress: Progress) => void;
  /** One-line notices about the run's setup (see `EngineOptions.onNotice`). */
  onNotice?: (text: string) => void;
  caCerts?: string[];
  startAtEpochMs?: number;
  /** The I/O path (see `EngineOptions.io`); default: `TAILGATE_IO`, else `auto`. */
  io?: "auto" | "native" | "deno";
  /**
   * The service under test, when tailgate started it: its process group. The contention probe
   * reads its processes' wait for a CPU; without it, those that hold a loopback target's socket.
   */
  service?: { pgid: number };
}

/**
 * How many workers `workers: auto` means here: one per core on machines with 4 or more cores,
 * otherwise the engine runs on the main thread (on 2 cores the second belongs to the timing
 * worker, the OS and often the target).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { workerCount } from "./run_workers.ts";
 * assert.equal(workerCount("auto", 2), 1);
 * assert.equal(workerCount(3, 2), 3);
 * ```
 */
export function workerCount(workers: number | "auto", cores: number): number {
  if (workers !== "auto") return workers;
  return cores >= 4 ? cores : 1;
}

/**
 * Composes a shard of a shard: worker `inner` of the run's share `outer`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { composeShards } from "./run_workers.ts";
 * assert.deepEqual(composeShards({ index: 1, count: 2 }, { index: 1, count: 3 }), { index: 3, count: 6 });
 * ```
 */
export function composeShards(outer: ShardSpec, inner: ShardSpec): ShardSpec {
  return { index: outer.index + outer.count * inner.index, count: outer.count * inner.count };
}

/**
 * Runs the plan and returns one merged record, with what the contention probe sampled meanwhile
 * (on Linux): the probe is started here, before the engines, and stopped once they are done.
 */
export async function runWorkers(options: RunWorkersOptions): Promise<EngineRun> {
  const probe = startContentionProbe({
    url: mixLabels(options.plan).requests[0].url,
    ...(options.service ? { pgid: options.service.pgid } : {}),
  });
  try {
    const run = await runEngines(options, probe);
    const contention = await probe?.stop();
    return contention ? { ...run, contention } : run;
  } finally {
    probe?.close();
  }
}

/**
 * The schedule's time zero (epoch ms), once the contention probe has its first sample: the
 * caller's, or a little ahead of now; the probe samples on its interval edges from then on.
 */
async function startInstant(
  probe: ContentionProbe | undefined,
  startAtEpochMs: number | undefined,
): Promise<number> {
  await probe?.ready;
  const at = startAtEpochMs ?? performance.timeOrigin + performance.now() + START_LEAD_MS;
  probe?.alignTo(at);
  return at;
}

async function runEngines(
  options: RunWorkersOptions,
  probe: ContentionProbe | undefined,
): Promise<EngineRun> {
  const count = workerCount(options.plan.load.workers, navigator.hardwareConcurrency);
  const shard = options.shard ?? { index: 0, count: 1 };
  // The native I/O path blocks its thread between events, so it always gets a worker: this
  // thread stays free for signals, progress and anything else the caller runs on it.
  const choice = ioChoice(options.io);
  const origin = new URL(mixLabels(options.plan).requests[0].url);
  const io = choice !== "deno" && await nativeTarget(origin, choice) ? "native" : "deno";
  if (count === 1 && io === "deno") {
    const startAt = () => startInstant(probe, options.startAtEpochMs);
    return await runEngine({ ...options, shard, io, startAt });
  }
  // Taken once every worker is ready, as one engine takes it once its connections are open: the
  // share is of the run's own window, not of loading and compiling the workers' modules.
  let cpuBefore = process.cpuUsage();
  const progress: Progress[] = [];
  const tallies = new TallySum();
  let ready = 0;
  const workers = Array.from(
    { length: count },
    () => new Worker(new URL("./engine_worker.ts", import.meta.url).href, { type: "module" }),
  );
  // Each engine's encoder and hiccup probe start from this thread, while the engines load: a
  // Worker started from a Worker would answer half a second later (start_side_workers.ts).
  const sides = workers.map(() => startSideWorkers());
  const sidesReady = Promise.all(sides.map((s) => s.ready));
  // Handled where the start waits for it; until then a side that fails to start must not be an
  // unhandled rejection (it would end the process before the run could report it).
  sidesReady.catch(() => {});
  const onAbort = () =>
    workers.forEach((w) => w.postMessage({ type: "stop" } satisfies ToEngineWorker));
  options.signal?.addEventListener("abort", onAbort);
  if (options.signal?.aborted) onAbort(); // stopped while the target's name was being resolved
  // This thread only relays progress and signals while the engines run (v8_flags.ts).
  const collector = setInterval(collectGarbage, MAIN_THREAD_GC_PERIOD_MS);
  Deno.unrefTimer(collector);
  try {
    const runs = await Promise.all(
      workers.map((worker, i) =>
        new Promise<EngineRun>((resolve, reject) => {
          worker.onmessage = (event: MessageEvent<FromEngineWorker>) => {
            const m = event.data;
            if (m.type === "ready") {
              if (++ready === count) {
                // Every worker has its connections open, and every probe runs: start together,
                // a little ahead.
                sidesReady.then(async () => {
                  const startAtEpochMs = await startInstant(probe, options.startAtEpochMs);
                  cpuBefore = process.cpuUsage();
                  workers.forEach((w) =>
                    w.postMessage({ type: "start", startAtEpochMs } satisfies ToEngineWorker)
                  );
                }, reject);
              }
            } else if (m.type === "notice") {
              options.onNotice?.(count > 1 ? `worker ${i}: ${m.text}` : m.text);
            } else if (m.type === "progress") {
              progress[i] = m.progress;
              tallies.add(i, m.progress.tally);
              if (i === 0) options.onProgress?.({ ...sumProgress(progress), tally: tallies.sum() });
            } else if (m.type === "done") {
              resolve({ ...m.run, startedAt: new Date(m.run.startedAt) });
            } else reject(new Error(`worker ${i}: ${m.message}`));
          };
          worker.onerror = (e) => {
            e.preventDefault();
            reject(new Error(`worker ${i}: ${e.message}`));
          };
          const side = sides[i].links;
          worker.postMessage(
            {
              type: "run",
              plan: options.plan,
              shard: composeShards(shard, { index: i, count }),
              caCerts: options.caCerts,
              io,
              side,
            } satisfies ToEngineWorker,
            [side.encoderPort],
          );
        })
      ),
    );
    const cpu = process.cpuUsage(cpuBefore);
    return {
      recorded: mergeRecordedRuns(runs.map((r) => r.recorded)),
      complete: runs.every((r) => r.complete),
      startedAt: runs[0].startedAt,
      durationMs: Math.max(...runs.map((r) => r.durationMs)),
      scheduleDurationMs: runs[0].scheduleDurationMs,
      scheduled: runs.reduce((n, r) => n + r.scheduled, 0),
      // The whole process, measured here: each worker's own reading would count every thread.
      cpu: { userMs: cpu.user / 1000, systemMs: cpu.system / 1000 },
      connections: {
        opened: runs.reduce((n, r) => n + r.connections.opened, 0),
        peak: runs.reduce((n, r) => n + r.connections.peak, 0),
      },
      ...unopenedSum(runs),
      ...(runs.some((r) => r.outOfDescriptors) ? { outOfDescriptors: true } : {}),
      ...(runs.some((r) => r.http2Reply) ? { http2Reply: true } : {}),
      // Every engine asked the same server: the first one's streams stand for all.
      ...(runs[0].http2 ? { http2: runs[0].http2 } : {}),
      timerSlackSet: runs.every((r) => r.timerSlackSet),
      io: runs[0].io,
      youngGenerationMb: Math.min(...runs.map((r) => r.youngGenerationMb ?? Infinity)),
      ...sumRendered(runs),
      ...bodySamplesOf(runs),
      ...(runs.some((r) => r.error)
        ? { error: runs.map((r) => r.error).filter(Boolean).join("; ") }
        : {}),
    };
  } finally {
    clearInterval(collector);
    options.signal?.removeEventListener("abort", onAbort);
    workers.forEach((w) => w.terminate());
    await Promise.all(sides.map((s) => s.close()));
  }
}

function sumProgress(parts: Progress[]): Progress {
  const first = parts[0];
  const total = (f: (p: Progress) => number) => parts.reduce((n, p) => n + (p ? f(p) : 0), 0);
  return {
    ...first,
    intendedPerSec: total((p) => p.intendedPerSec),
    sentPerSec: total((p) => p.sentPerSec),
    completed: total((p) => p.completed),
    errors: total((p) => p.errors),
    queued: total((p) => p.queued),
    inflight: total((p) => p.inflight),
  };
}

function sumRendered(runs: EngineRun[]): Pick<EngineRun, "rendered"> {
  const parts = runs.flatMap((r) => r.rendered ? [r.rendered] : []);
  if (parts.length === 0) return {};
  return {
    rendered: {
      late: parts.reduce((n, p) => n + p.late, 0),
      draws: parts[0].draws.map((_, s) => parts.reduce((n, p) => n + p.draws[s], 0)),
    },
  };
}

/**
 * The workers' body samples: per label and code the first answered (the workers share the run's
 * start), a tie going to the lower-numbered worker.
 */
function bodySamplesOf(runs: EngineRun[]): Pick<EngineRun, "bodySamples"> {
  const samples = firstBodySamples(runs.map((r) => r.bodySamples ?? []));
  return samples.length ? { bodySamples: samples } : {};
}

function unopenedSum(runs: EngineRun[]): { unopenedConnections?: number } {
  const n = runs.reduce((sum, r) => sum + (r.unopenedConnections ?? 0), 0);
  return n > 0 ? { unopenedConnections: n } : {};
}

// Never called: puts the worker's module into this module's graph, so `deno install` from a URL
// caches it with the rest instead of leaving it to be fetched when the worker starts.
const _workerInGraph = () => import("./engine_worker.ts");
