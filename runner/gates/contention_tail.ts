/**
 * The slowest requests the machine's contention could have delayed, taken off a gate's figure.
 *
 * On a shared runner other work takes the CPU from the service as well as from the generator, and
 * the service's tail pays for it. The result measures, per 1 s interval, how long the service (or
 * the machine) waited for a CPU (runner/result/read/machine_contention.ts). A gate fails only on an
 * excess that contention cannot explain: from each interval, the share of its requests the
 * contention could have delayed is taken off its slowest responses (they are moved to 0, as if the
 * machine had been all of their latency), and the figure must still be beyond the bound. Where the
 * excess is confined to the seconds the machine was busy, it goes; where the server is slow
 * throughout, it stays. Pure.
 *
 * @module
 */
import { createHistogram, decodeHistogram, type Histogram } from "../hdr/mod.ts";
import type { RunContention, RunResult } from "../model/run_result.ts";
import { formatDurationMs } from "../plan/units.ts";
import type { GateEvidence } from "./decision_rule.ts";
import { delayedShares } from "../result/read/mod.ts";

/** One interval of a group of requests, as the contention adjustment reads it. */
export interface ContendedInterval {
  /** Offset of the interval's start from the run's start. */
  startMs: number;
  /** The interval's successful responses: each non-empty bucket's value (us) and count, ascending. */
  buckets: ReadonlyArray<{ valueUs: number; count: number }>;
  /** The share of its requests the machine's contention could have delayed (0 to 1). */
  share: number;
}

/**
 * The intervals of `stageIndexes` (and of `label`, when given) in which the machine's contention
 * could have delayed any request, with that share. Empty when the run measured none.
 */
export function contendedIntervals(
  result: Pick<RunResult, "intervals" | "health">,
  stageIndexes: readonly number[],
  label?: string,
): ContendedInterval[] {
  const source = result.health.contention?.source;
  if (source === undefined || source === "none") return [];
  const shares = delayedShares(result.intervals, source);
  const bound = new Set(stageIndexes);
  const out: ContendedInterval[] = [];
  result.intervals.forEach((interval, i) => {
    if (!bound.has(interval.stageIndex) || shares[i] <= 0) return;
    const group = label === undefined ? interval : interval.labels.find((l) => l.label === label);
    if (group === undefined || group.response.count === 0) return;
    const buckets = [...decodeHistogram(group.response.hdr).recordedValues()]
      .map(({ valueUs, count }) => ({ valueUs, count }));
    out.push({ startMs: interval.startMs, buckets, share: shares[i] });
  });
  return out;
}

/**
 * `h` with, from each interval, the slowest `share` of its responses (rounded up) moved to 0:
 * the histogram the gate's figure would have had if all their latency were the machine's, and how
 * many were moved. Undefined when nothing is taken off. `h` must hold the intervals' requests (the group they were
 * read from); a count it does not hold is not taken off.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createHistogram } from "../hdr/mod.ts";
 * import { withoutContended } from "./contention_tail.ts";
 * const busy = createHistogram();
 * busy.recordValueWithCount(100, 90);
 * busy.recordValueWithCount(30_000, 10); // 10 slow requests in a second the service waited
 * const buckets = [...busy.recordedValues()];
 * const { adjusted, takenOff } = withoutContended(busy, [{ startMs: 0, buckets, share: 0.1 }])!;
 * assert.equal(adjusted.maxValue, 100);
 * assert.equal(takenOff, 10);
 * assert.equal(adjusted.totalCount, 100); // moved to 0, not dropped
 * ```
 */
export function withoutContended(
  h: Histogram,
  intervals: readonly ContendedInterval[],
): { adjusted: Histogram; takenOff: number } | undefined {
  const moved = new Map<number, number>();
  for (const { buckets, share } of intervals) {
    const total = buckets.reduce((sum, b) => sum + b.count, 0);
    let left = Math.min(total, Math.ceil(share * total - 1e-9));
    for (let k = buckets.length - 1; k >= 0 && left > 0; k--) {
      const take = Math.min(left, buckets[k].count);
      moved.set(buckets[k].valueUs, (moved.get(buckets[k].valueUs) ?? 0) + take);
      left -= take;
    }
  }
  if (moved.size === 0) return undefined;
  const adjusted = createHistogram();
  let takenOff = 0;
  for (const { valueUs, count } of h.recordedValues()) {
    const take = Math.min(count, moved.get(valueUs) ?? 0);
    takenOff += take;
    if (count > take) adjusted.recordValueWithCount(valueUs, count - take);
  }
  if (takenOff === 0) return undefined;
  adjusted.recordValueWithCount(0, takenOff);
  return { adjusted, takenOff };
}

/**
 * What the machine did, in words: the service's wait for a CPU (or, where the service could not
 * be seen, the machine's CPU pressure), its worst second, and the hypervisor's steal.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { contentionWords } from "./contention_tail.ts";
 * assert.equal(
 *   contentionWords({
 *     source: "service",
 *     service: { found: "started", pids: [7], name: "nginx" },
 *     serviceWaitMs: 412,
 *     share: 0.06,
 *     worst: { startMs: 9000, waitMs: 49 },
 *   }),
 *   "the service (nginx) waited 412ms for a CPU, 49ms of it in the second from 9 s",
 * );
 * ```
 */
export function contentionWords(run: RunContention): string {
  const ms = (v: number | undefined) => formatDurationMs(Math.round(v ?? 0));
  const worst = run.worst
    ? `, ${ms(run.worst.waitMs)} of it in the second from ${+(run.worst.startMs / 1000)
      .toFixed(1)} s`
    : "";
  const steal = (run.stealMs ?? 0) > 0
    ? `; the hypervisor took ${ms(run.stealMs)} of its CPUs (steal)`
    : "";
  if (run.source === "service") {
    const name = run.service?.name ? ` (${run.service.name})` : "";
    return `the service${name} waited ${ms(run.serviceWaitMs)} for a CPU${worst}${steal}`;
  }
  return `tasks on this machine waited for a CPU during ${ms(run.pressureMs)} of the run ` +
    `(CPU pressure; the service's own processes could not be seen)${worst}${steal}`;
}

/**
 * Why a gate the machine's contention explains is undecided, and what would decide it.
 */
export function contentionReason(
  c: NonNullable<GateEvidence["contention"]>,
  show: (v: number) => string,
): string {
  return `the runner was contended: ${contentionWords(c.run)}; with the ${c.takenOff} slowest ` +
    `requests that fell due then taken off, the figure's 95% interval starts at ${show(c.low)}, ` +
    "within the bound, so the machine could explain the excess: rerun on a quieter runner " +
    "(--confirm reruns it), or compare head against base with `tailgate ab`, which cancels the " +
    "runner";
}
