/**
 * The machine's CPU contention in the result: each 1 s interval's growth of the contention
 * counters over its wall time, `[t0 + startMs, t0 + startMs + durationMs)` with t0 the schedule's
 * time zero, read off the probe's samples by linear interpolation (the probe samples at the
 * interval edges, so the interpolation mostly only bridges a sample taken a little late); the
 * run's summary (`summarizeContention`); and the intervals of sharded runs merged, where the
 * worst shard bounds what any request saw. Pure.
 *
 * @module
 */
import type { ContentionSample } from "../engine/mod.ts";
import type { ContentionRecord } from "../run/mod.ts";
import type {
  IntervalContention,
  IntervalResult,
  RunContention,
  StageResult,
} from "../model/mod.ts";
import { summarizeContention } from "./read/mod.ts";

/** A counter's readings in time order: epoch ms and value. */
type Series = { atMs: number[]; values: number[] };

/**
 * The value of `series` at `atMs`, interpolated linearly between the readings around it;
 * undefined outside them.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { valueAt } from "./interval_contention.ts";
 * const series = { atMs: [0, 500, 1000], values: [0, 10, 40] };
 * assert.equal(valueAt(series, 250), 5);
 * assert.equal(valueAt(series, 750), 25);
 * assert.equal(valueAt(series, 1000), 40);
 * assert.equal(valueAt(series, 1001), undefined);
 * ```
 */
export function valueAt(series: Series, atMs: number): number | undefined {
  const { atMs: at, values } = series;
  const n = at.length;
  if (n === 0 || atMs < at[0] || atMs > at[n - 1]) return undefined;
  let lo = 0;
  let hi = n - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (at[mid] <= atMs) lo = mid;
    else hi = mid;
  }
  if (at[hi] === at[lo]) return values[hi];
  return values[lo] + (values[hi] - values[lo]) * (atMs - at[lo]) / (at[hi] - at[lo]);
}

/** Each counter's series, of the samples that have it. */
function seriesOf(samples: readonly ContentionSample[]) {
  const of = (read: (s: ContentionSample) => number | undefined): Series => {
    const atMs: number[] = [];
    const values: number[] = [];
    for (const s of samples) {
      const v = read(s);
      if (v === undefined) continue;
      atMs.push(s.atEpochMs);
      values.push(v);
    }
    return { atMs, values };
  };
  const cpus = Math.max(0, ...samples.map((s) => s.stealTicks?.length ?? 0));
  return {
    pressureUs: of((s) => s.pressureUs),
    serviceWaitNs: of((s) => s.serviceWaitNs),
    stealTicks: Array.from({ length: cpus }, (_, c) => of((s) => s.stealTicks?.[c])),
  };
}

/**
 * Each interval's contention, from the probe's record: the growth of every counter it could read
 * over the interval's wall time, in ms to 0.1 ms (steal: the busiest CPU's growth); an interval
 * the samples do not cover has none. Intervals are returned as they were without a time zero.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { withIntervalContention } from "./interval_contention.ts";
 * const at = (atEpochMs: number, pressureUs: number, steal: number[], serviceWaitNs: number) => ({
 *   atEpochMs, pressureUs, stealTicks: steal, serviceWaitNs,
 * });
 * const record = {
 *   samples: [at(1000, 0, [0, 0], 0), at(2000, 40_000, [1, 3], 12_000_000), at(3000, 40_000, [1, 3], 12_000_000)],
 *   clockTicksPerSec: 100,
 *   startAtEpochMs: 1000,
 *   local: true,
 * };
 * const [first, second] = withIntervalContention([{ startMs: 0, durationMs: 1000 }, { startMs: 1000, durationMs: 1000 }], record);
 * assert.deepEqual(first.contention, { pressureMs: 40, stealMs: 30, serviceWaitMs: 12 });
 * assert.deepEqual(second.contention, { pressureMs: 0, stealMs: 0, serviceWaitMs: 0 });
 * ```
 */
export function withIntervalContention<T extends Pick<IntervalResult, "startMs" | "durationMs">>(
  intervals: readonly T[],
  record: ContentionRecord,
): (T & { contention?: IntervalContention })[] {
  const t0 = record.startAtEpochMs;
  if (t0 === undefined) return [...intervals];
  const series = seriesOf(record.samples);
  const msPerTick = 1000 / record.clockTicksPerSec;
  return intervals.map((interval) => {
    const fromMs = t0 + interval.startMs;
    const toMs = fromMs + interval.durationMs;
    const growth = (s: Series) => {
      const from = valueAt(s, fromMs);
      const to = valueAt(s, toMs);
      return from === undefined || to === undefined ? undefined : Math.max(0, to - from);
    };
    const pressureUs = growth(series.pressureUs);
    const waitNs = growth(series.serviceWaitNs);
    const steal = series.stealTicks.map(growth).filter((g) => g !== undefined);
    const contention: IntervalContention = {
      ...(pressureUs === undefined ? {} : { pressureMs: round(pressureUs / 1000) }),
      ...(steal.length === 0 ? {} : { stealMs: round(Math.max(...steal) * msPerTick) }),
      ...(waitNs === undefined ? {} : { serviceWaitMs: round(waitNs / 1e6) }),
    };
    return Object.keys(contention).length > 0 ? { ...interval, contention } : { ...interval };
  });
}

/**
 * What stands for the service's wait (`RunContention.source`), by what the probe could read: its
 * threads' wait when any was read (`service`), else the machine's CPU pressure for a target on
 * this machine (`pressure`), else nothing (`none`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { contentionSource } from "./interval_contention.ts";
 * const sample = { atEpochMs: 0, pressureUs: 5 };
 * assert.equal(contentionSource({ samples: [sample], local: true }), "pressure");
 * assert.equal(contentionSource({ samples: [sample], local: false }), "none");
 * assert.equal(contentionSource({ samples: [{ ...sample, serviceWaitNs: 0 }], local: true }), "service");
 * ```
 */
export function contentionSource(
  record: Pick<ContentionRecord, "samples" | "local">,
): RunContention["source"] {
  if (record.samples.some((s) => s.serviceWaitNs !== undefined)) return "service";
  if (record.local && record.samples.some((s) => s.pressureUs !== undefined)) return "pressure";
  return "none";
}

/**
 * The result's intervals with their contention and the run's summary, from the probe's record;
 * the intervals as they were and no summary when the probe never learnt the schedule's time zero
 * (a run stopped before it started).
 */
export function contentionOfRun(
  intervals: readonly IntervalResult[],
  stages: readonly Pick<StageResult, "index" | "warmup">[],
  record: ContentionRecord,
): { intervals: IntervalResult[]; contention?: RunContention } {
  if (record.startAtEpochMs === undefined) return { intervals: [...intervals] };
  const withContention = withIntervalContention(intervals, record);
  const source = contentionSource(record);
  const service = source === "service" ? record.service : undefined;
  return {
    intervals: withContention,
    contention: summarizeContention(withContention, stages, source, service),
  };
}

/**
 * One interval's contention across shards (run on different machines, each with its own
 * counters): each figure the largest of the shards', since the worst machine bounds what any
 * request of the interval saw; undefined when no shard measured any.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { worstContention } from "./interval_contention.ts";
 * assert.deepEqual(
 *   worstContention([{ pressureMs: 3, serviceWaitMs: 1 }, undefined, { pressureMs: 9, stealMs: 2 }]),
 *   { pressureMs: 9, stealMs: 2, serviceWaitMs: 1 },
 * );
 * assert.equal(worstContention([undefined]), undefined);
 * ```
 */
export function worstContention(
  parts: readonly (IntervalContention | undefined)[],
): IntervalContention | undefined {
  const worst: IntervalContention = {};
  for (const key of ["pressureMs", "stealMs", "serviceWaitMs"] as const) {
    const values = parts.flatMap((p) => p?.[key] === undefined ? [] : [p[key]!]);
    if (values.length > 0) worst[key] = Math.max(...values);
  }
  return Object.keys(worst).length > 0 ? worst : undefined;
}

/**
 * The source of a merged result: the least precise of its shards' (`none` < `pressure` <
 * `service`): a merged result says `service` only when every shard measured its service, and
 * `none` as soon as one shard had no measure. Undefined when no shard measured contention.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { weakestSource } from "./interval_contention.ts";
 * assert.equal(weakestSource(["service", "pressure"]), "pressure");
 * assert.equal(weakestSource(["service", undefined]), "none");
 * assert.equal(weakestSource([undefined, undefined]), undefined);
 * ```
 */
export function weakestSource(
  sources: readonly (RunContention["source"] | undefined)[],
): RunContention["source"] | undefined {
  if (sources.every((s) => s === undefined)) return undefined;
  const order: RunContention["source"][] = ["none", "pressure", "service"];
  return order[Math.min(...sources.map((s) => s === undefined ? 0 : order.indexOf(s)))];
}

/**
 * A merged result's contention: its intervals' (each the worst shard's, {@linkcode
 * worstContention}) summarized under the shards' weakest source ({@linkcode weakestSource}),
 * naming the service only when every shard measured the same one (shards on one machine);
 * undefined when no shard measured contention.
 */
export function mergedContention(
  shards: readonly (RunContention | undefined)[],
  intervals: readonly IntervalResult[],
  stages: readonly Pick<StageResult, "index" | "warmup">[],
): RunContention | undefined {
  const source = weakestSource(shards.map((c) => c?.source));
  if (source === undefined) return undefined;
  const services = shards.map((c) => JSON.stringify(c?.service));
  const service = source === "service" && services.every((s) => s === services[0])
    ? shards[0]?.service
    : undefined;
  return summarizeContention(intervals, stages, source, service);
}

function round(x: number): number {
  return Math.round(x * 10) / 10;
}
