/**
 * The contention probe's thread: it finds the service (runner/service/find_service.ts), then reads
 * the contention counters (runner/engine/contention/) once a second, at each 1 s interval edge of
 * the run's schedule once it knows the schedule's time zero, until it is stopped, and hands back
 * every sample.
 *
 * Why a Worker of its own, at a low priority. The main thread is mostly idle while engine Workers
 * run, but with `workers: 1` on Deno's sockets the engine runs on the main thread, where each
 * sample (about 0.1-0.2 ms of file reads) would delay a send or show as an engine stall; the
 * hiccup probe's thread measures its own oversleep, so it must do nothing else; the interval
 * encoder works in bursts at the second's edge, just when a sample is due. So the probe sleeps on
 * a thread of its own, under SCHED_BATCH at nice 10 (runner/engine/low_priority.ts): a batch
 * thread that wakes never preempts the thread running, so the engine's and the hiccup probe's
 * wakes run first, on either core. It sleeps in `Atomics.wait`, not on timers: a Worker's event
 * loop woke about three times per timer and cost 0.45 ms of CPU a second doing nothing at two
 * timers a second; the wait wakes once per sample. The main thread reaches it through a shared
 * buffer ({@linkcode PROBE_SLOT}): the time zero, and the stop. A sample taken late is still
 * exact about its own time (each carries it), and the result reads the interval edges off the
 * samples by linear interpolation.
 *
 * @module
 */
// Through side doors (tests/layers_test.ts, SIDE_DOORS), not engine/mod.ts and service/mod.ts:
// those would load the whole engine (HTTP, TLS, the preflight) into a thread that starts before
// every run, about 0.35 s of CPU a run.
import {
  clockTicksPerSec,
  type ContentionSample,
  CounterSampler,
} from "../engine/contention/mod.ts";
import { lowerThreadPriority } from "../engine/low_priority.ts";
import { findService, type FoundService, servedInProcess } from "../service/find_service.ts";
import { isLoopbackHost } from "../service/listening_sockets.ts";
import { liveGroupMembers } from "../service/process_group.ts";

/** The probe's period (ms): one sample a second, on each interval edge once aligned. */
export const CONTENTION_PERIOD_MS = 1000;
/** Samples between two listings of the service's threads (every 2 s). */
const THREAD_REFRESH_SAMPLES = 2;
/** How often a started service's group is looked at again for new processes (ms). */
const GROUP_REFRESH_MS = 5_000;

/**
 * The shared buffer: Int32 slot `stop` (non-zero: a last sample, then the record) and Float64
 * slot `f64StartAt` (the schedule's time zero, epoch ms; NaN until the run tells it). The main
 * thread writes either and notifies slot `stop`, which wakes the probe.
 */
export const PROBE_SLOT = { stop: 0, f64StartAt: 1, bytes: 16 } as const;

/**
 * What the probe measured over a run: the samples in time order, the clock ticks `/proc/stat`
 * counts steal in, the schedule's time zero (epoch ms, when the run told it), whether the target is
 * a service on this machine apart from tailgate (not one tailgate serves itself: the machine's
 * pressure stands for a local service it cannot see), and the service as found (its PIDs: every
 * one seen during the run).
 */
export interface ContentionRecord {
  samples: ContentionSample[];
  clockTicksPerSec: number;
  startAtEpochMs?: number;
  local: boolean;
  service?: FoundService;
}

/**
 * The message that starts the worker: the shared buffer, the target's URL and the group tailgate
 * started the service in, if it did.
 */
export interface ToContentionWorker {
  sab: SharedArrayBuffer;
  url: string;
  pgid?: number;
}

/** Messages from the worker: `ready` once the first sample is taken, `done` with the record. */
export type FromContentionWorker =
  | { type: "ready"; lowPriority: boolean }
  | { type: "done"; record: ContentionRecord };

/**
 * When the next sample is due (epoch ms) after `nowMs`: on the grid `startAtEpochMs` + k ×
 * `periodMs` once the run's time zero is known, else one period after the last sample.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { nextSampleAtMs } from "./contention_worker.ts";
 * assert.equal(nextSampleAtMs(1_230, 1_000, undefined, 1000), 2_000);
 * assert.equal(nextSampleAtMs(1_230, 1_000, 2_020, 1000), 2_020); // time zero itself
 * assert.equal(nextSampleAtMs(2_520, 2_020, 2_020, 1000), 3_020);
 * ```
 */
export function nextSampleAtMs(
  nowMs: number,
  lastMs: number,
  startAtEpochMs: number | undefined,
  periodMs: number,
): number {
  if (startAtEpochMs === undefined) return lastMs + periodMs;
  return startAtEpochMs + Math.floor((nowMs - startAtEpochMs) / periodMs + 1) * periodMs;
}

/**
 * The probe on the calling thread: finds the service, takes the first sample, calls `onReady`,
 * then samples until the buffer says stop, and returns the record.
 */
export function runContentionProbe(
  start: ToContentionWorker,
  onReady: () => void,
): ContentionRecord {
  const i32 = new Int32Array(start.sab);
  const f64 = new Float64Array(start.sab);
  const url = new URL(start.url);
  const pgid = start.pgid;
  const found = findService({ url, ...(pgid === undefined ? {} : { pgid }) });
  // A target tailgate serves itself has no wait apart from the generator's: no measure of it.
  const inProcess = found === undefined && servedInProcess(url);
  const seen = new Set(found?.pids);
  let current: readonly number[] = found?.pids ?? [];
  let listedAtMs = performance.now();
  // A started group may gain processes: it is looked at again every few seconds.
  const pids = () => {
    if (found?.found !== "started" || pgid === undefined) return current;
    if (performance.now() - listedAtMs < GROUP_REFRESH_MS) return current;
    listedAtMs = performance.now();
    current = liveGroupMembers(pgid);
    for (const pid of current) seen.add(pid);
    return current;
  };
  const sampler = new CounterSampler({
    ...(found ? { pids } : {}),
    refreshEvery: THREAD_REFRESH_SAMPLES,
  });
  const samples = [sampler.sample()];
  onReady();
  while (Atomics.load(i32, PROBE_SLOT.stop) === 0) {
    const startAt = f64[PROBE_SLOT.f64StartAt];
    const nowMs = performance.timeOrigin + performance.now();
    const lastMs = samples[samples.length - 1].atEpochMs;
    // A wake a little early must not take the same edge twice.
    const afterMs = Math.max(nowMs, lastMs + CONTENTION_PERIOD_MS / 100);
    const atMs = nextSampleAtMs(
      afterMs,
      lastMs,
      Number.isNaN(startAt) ? undefined : startAt,
      CONTENTION_PERIOD_MS,
    );
    // Woken early by the main thread (the time zero told, or the stop): the loop looks again.
    if (Atomics.wait(i32, PROBE_SLOT.stop, 0, Math.max(0, atMs - nowMs)) !== "timed-out") continue;
    if (Atomics.load(i32, PROBE_SLOT.stop) !== 0) break;
    samples.push(sampler.sample());
  }
  samples.push(sampler.sample());
  sampler.close();
  const startAtEpochMs = f64[PROBE_SLOT.f64StartAt];
  return {
    samples,
    clockTicksPerSec: clockTicksPerSec(),
    ...(Number.isNaN(startAtEpochMs) ? {} : { startAtEpochMs }),
    local: isLoopbackHost(url.hostname) && !inProcess,
    ...(found ? { service: { ...found, pids: [...seen].sort((a, b) => a - b) } } : {}),
  };
}

interface ProbeScope {
  onmessage: ((e: MessageEvent<ToContentionWorker>) => void) | null;
  postMessage(message: FromContentionWorker): void;
  close(): void;
}

if (import.meta.main && "WorkerGlobalScope" in globalThis) {
  const scope = globalThis as unknown as ProbeScope;
  scope.onmessage = (e) => {
    scope.onmessage = null;
    const { lowered } = lowerThreadPriority();
    const record = runContentionProbe(
      e.data,
      () => scope.postMessage({ type: "ready", lowPriority: lowered }),
    );
    scope.postMessage({ type: "done", record });
    scope.close();
  };
}
