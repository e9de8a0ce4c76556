/**
 * What the machine's contention could explain of a gate's excess, taken off its figure.
 *
 * On a shared runner other work takes the CPU from the service as well as from the generator, and
 * the service's tail pays for it. The result measures, per 1 s interval, how long the service (or
 * the machine) waited for a CPU (runner/result/read/machine_contention.ts). A request beyond the
 * gate's threshold by an excess `e` can have been made so by the machine only if the service
 * waited at least `e` while it was due, so the requests the wait `W` of an interval can explain
 * beyond `e` are at most:
 *
 * - those that fell due while a wait still had `e` or more to go, and as many again that queued
 *   behind them while the backlog drained: `2 × n × max(0, W − e) / d` (n requests over d);
 * - those in flight when a wait of `e` or more began: at most `W / e` such waits, each holding the
 *   requests then in flight (the interval's rate × its mean latency, Little's law).
 *
 * From each interval the requests beyond the threshold that can all be explained together are
 * taken off, those with the smallest excess first (moved to 0, as if the machine had been all of
 * their latency), and the gate fails only when its figure is still beyond the bound. An excess
 * confined to the seconds the service waited goes; a few milliseconds of wait cannot explain a
 * request 40 ms over the bound; a server slow in every second fails whatever one busy second
 * explains. Pure.
 *
 * @module
 */
import { createHistogram, decodeHistogram, type Histogram } from "../hdr/mod.ts";
import type { RunContention, RunResult } from "../model/mod.ts";
import { formatDurationMs } from "../plan/mod.ts";
import type { GateEvidence } from "./decision_rule.ts";
import {
  type AdviceScope,
  confirmReruns,
  CONTENTION_QUEUE_FACTOR,
  reachingWaitsMs,
} from "../result/mod.ts";

/** One interval of a group of requests, as the contention adjustment reads it. */
export interface ContendedInterval {
  /** Offset of the interval's start from the run's start. */
  startMs: number;
  /** The interval's length (ms). */
  durationMs: number;
  /**
   * The longest the service may have waited for a CPU while these requests were due (ms): the
   * larger of the interval's wait and the next one's (a request due late in a second is answered
   * in the next).
   */
  waitMs: number;
  /** The interval's successful responses: each non-empty bucket's value (us) and count, ascending. */
  buckets: ReadonlyArray<{ valueUs: number; count: number }>;
}

/**
 * The intervals of `stageIndexes` (and of `label`, when given) in which the service waited for a
 * CPU, with their response times (their times to first byte for `series` `ttfb`). Empty when the
 * run measured no contention.
 */
export function contendedIntervals(
  result: Pick<RunResult, "intervals" | "health">,
  stageIndexes: readonly number[],
  label?: string,
  series?: "journey" | "ttfb",
): ContendedInterval[] {
  const source = result.health.contention?.source;
  if (source === undefined || source === "none") return [];
  const waits = reachingWaitsMs(result.intervals, source);
  const bound = new Set(stageIndexes);
  const out: ContendedInterval[] = [];
  result.intervals.forEach((interval, i) => {
    const waitMs = waits[i];
    if (!bound.has(interval.stageIndex) || waitMs <= 0) return;
    const group = label === undefined ? interval : interval.labels.find((l) => l.label === label);
    // The latencies the gate judges: the response times, or the times to first byte (`ttfb.`).
    const latency = series === "ttfb" ? group?.ttfb : group?.response;
    if (latency === undefined || latency.count === 0) return;
    const buckets = [...decodeHistogram(latency.hdr).recordedValues()]
      .map(({ valueUs, count }) => ({ valueUs, count }));
    out.push({ startMs: interval.startMs, durationMs: interval.durationMs, waitMs, buckets });
  });
  return out;
}

/**
 * At most how many of an interval's requests its wait can have delayed by `excessUs` or more
 * (see the module); all of them as the excess nears 0, none beyond the wait itself.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { explainable } from "./contention_tail.ts";
 * // 1,000 requests of 1 ms in a second the service waited 50 ms.
 * const iv = { startMs: 0, durationMs: 1000, waitMs: 50, buckets: [{ valueUs: 1000, count: 1000 }] };
 * assert.equal(explainable(iv, 60_000), 0); // a 60 ms excess: longer than every wait together
 * assert.equal(explainable(iv, 25_000), 52); // 2 × 1000 × 25 / 1000, and 2 waits × 1 in flight
 * assert.equal(explainable(iv, 1), 1000);
 * ```
 */
export function explainable(iv: ContendedInterval, excessUs: number): number {
  const n = iv.buckets.reduce((sum, b) => sum + b.count, 0);
  const excessMs = Math.max(excessUs, 1) / 1000;
  if (excessMs >= iv.waitMs || iv.durationMs <= 0) return 0;
  const meanMs = iv.buckets.reduce((sum, b) => sum + b.count * b.valueUs, 0) / (1000 * n);
  const inFlight = (n / iv.durationMs) * meanMs;
  const dueDuring = CONTENTION_QUEUE_FACTOR * n * (iv.waitMs - excessMs) / iv.durationMs;
  const heldThrough = Math.floor(iv.waitMs / excessMs) * inFlight;
  return Math.min(n, Math.ceil(dueDuring + heldThrough - 1e-9));
}

/**
 * `h` with, from each interval, the requests beyond `thresholdUs` its wait can explain together
 * ({@linkcode explainable}; the smallest excess first) moved to 0: the histogram the gate's figure
 * would have had if all their latency were the machine's, and how many were moved. Undefined when
 * nothing is taken off. `h` must hold the intervals' requests (the group they were read from); a
 * count it does not hold is not taken off.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createHistogram } from "../hdr/mod.ts";
 * import { withoutContended } from "./contention_tail.ts";
 * const busy = createHistogram();
 * busy.recordValueWithCount(100, 990);
 * busy.recordValueWithCount(12_000, 10); // 10 slow requests in a second the service waited 300 ms
 * const buckets = [...busy.recordedValues()];
 * const iv = { startMs: 0, durationMs: 1000, waitMs: 300, buckets };
 * const { adjusted, takenOff } = withoutContended(busy, [iv], 10_000)!;
 * assert.equal(adjusted.maxValue, 100);
 * assert.equal(takenOff, 10);
 * assert.equal(adjusted.totalCount, 1000); // moved to 0, not dropped
 * // 1 ms of wait cannot have made a request 2 ms over the threshold: nothing is taken off.
 * assert.equal(withoutContended(busy, [{ ...iv, waitMs: 1 }], 10_000), undefined);
 * ```
 */
export function withoutContended(
  h: Histogram,
  intervals: readonly ContendedInterval[],
  thresholdUs: number,
): { adjusted: Histogram; takenOff: number } | undefined {
  const moved = new Map<number, number>();
  for (const iv of intervals) {
    const beyond = iv.buckets.filter((b) => b.valueUs > thresholdUs);
    const k = explainedCount(iv, beyond, thresholdUs);
    let left = k;
    for (const b of beyond) {
      if (left <= 0) break;
      const take = Math.min(left, b.count);
      moved.set(b.valueUs, (moved.get(b.valueUs) ?? 0) + take);
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
 * The most of `beyond` (an interval's buckets past the threshold, ascending) the wait can explain
 * together: the largest k such that, of the k smallest excesses, those at or past each excess
 * number no more than the wait can delay that far.
 */
function explainedCount(
  iv: ContendedInterval,
  beyond: ReadonlyArray<{ valueUs: number; count: number }>,
  thresholdUs: number,
): number {
  const caps = beyond.map((b) => explainable(iv, b.valueUs - thresholdUs));
  const total = beyond.reduce((sum, b) => sum + b.count, 0);
  const feasible = (k: number) => {
    let before = 0;
    for (let i = 0; i < beyond.length && before < k; i++) {
      if (k - before > caps[i]) return false;
      before += beyond[i].count;
    }
    return true;
  };
  let low = 0;
  let high = total;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (feasible(mid)) low = mid;
    else high = mid - 1;
  }
  return low;
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
  advice?: AdviceScope,
): string {
  return `the runner was contended: ${contentionWords(c.run)}; with the ${c.takenOff} requests ` +
    `beyond the bound that wait could have delayed taken off, the figure's 95% interval would ` +
    `be ${show(c.low)} to ${
      show(c.high)
    }, so the machine could explain the excess: rerun on a quieter runner ` +
    `(${confirmReruns(advice)}), or compare head against base with \`tailgate ab\`, which ` +
    "cancels the runner";
}
