/**
 * What this runner has already produced for one check: a metric's values over the newest
 * {@linkcode SEEN_RUNS} baseline runs of the plan's long history (runs that failed an SLO or ran
 * contended left out), read off the percentiles and counts each entry keeps. A history too
 * scattered to bound the next run still tells what its runs reached: a value no further out is no
 * evidence of a change (regression.ts). The window's 10 runs alone make that range narrow: a run
 * lies beyond the highest of 10 like it about 1 time in 11, per metric, where 30 make it 1 in 31.
 * Pure.
 *
 * @module
 */
import type { HistoryEntry } from "../../history/mod.ts";
import { completedPerSec } from "../../model/mod.ts";
import { isSufficient } from "../stats/mod.ts";
import { percentileOf, type RegressionMetric } from "./regression_metrics.ts";
import { type StageShape, stagesMatch } from "../../history/mod.ts";

/** The newest baseline runs of the long history whose values a check's range spans. */
export const SEEN_RUNS = 30;

/**
 * The values of `metric` for `stage` (and `label`) over the newest {@linkcode SEEN_RUNS} baseline
 * entries of `history`: percentiles (with `minTail` requests beyond them) and throughput; empty for
 * the other metrics, whose entries keep no figure for them.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { seenValues } from "./seen_values.ts";
 * import type { HistoryEntry } from "../../history/mod.ts";
 * const counts = {
 *   scheduled: 20_000, sent: 20_000, completed: 20_000, ok: 20_000, errors: {}, statusCodes: {},
 *   bytesSent: 0, bytesReceived: 0,
 * };
 * const stage = { index: 1, name: "steady", warmup: false, fromPerSec: 2000, toPerSec: 2000, durationMs: 10_000 };
 * const entry = (p99: number, notBaseline?: ["contended"]): HistoryEntry => ({
 *   date: "", runner: "", plan: "", environment: {} as never, ...(notBaseline ? { notBaseline } : {}),
 *   stages: [{ ...stage, counts, labels: [],
 *     response: { count: 20_000, minUs: 0, maxUs: 0, meanUs: 0, percentilesUs: { "99": p99 }, hdr: "" } }],
 * });
 * const history = [entry(900), entry(4_000, ["contended"]), entry(1_200)];
 * assert.deepEqual(seenValues(history, stage, undefined, "p99"), [900, 1_200]);
 * assert.deepEqual(seenValues(history, stage, undefined, "throughput"), [2000, 2000]);
 * assert.deepEqual(seenValues(history, stage, undefined, "max"), []);
 * ```
 */
export function seenValues(
  history: readonly HistoryEntry[],
  stage: StageShape,
  label: string | undefined,
  metric: RegressionMetric,
  minTail = 10,
): number[] {
  const q = percentileOf(metric);
  if (q === undefined && metric !== "throughput") return [];
  const baselines = history.filter((e) => !e.notBaseline?.length).slice(-SEEN_RUNS);
  return baselines.flatMap((e) => {
    const s = e.stages.find((h) => stagesMatch(h, stage));
    const group = label === undefined ? s : s?.labels.find((l) => l.label === label);
    if (s === undefined || group === undefined) return [];
    if (q === undefined) return [completedPerSec(group.counts, s.durationMs)];
    const percentiles = "response" in group
      ? group.response.percentilesUs
      : group.responsePercentilesUs;
    const answered = "response" in group ? group.response.count : group.counts.ok;
    const value = percentiles[String(q)];
    return value !== undefined && isSufficient(answered, q, minTail) ? [value] : [];
  });
}
