/**
 * The counts a progress report carries for fail-fast (runner/gates/fail_fast/fail_fast_watch.ts): per stage
 * and request label, and per open 1 s interval of intended send time and label, how many requests
 * were taken from the schedule, answered as expected, and failed so far. Requests taken and neither
 * answered nor failed are outstanding. Flat arrays, three numbers per group, so a worker posts them
 * cheaply; {@linkcode TallySum} adds the workers' tallies up.
 *
 * @module
 */

/** Numbers per group: taken from the schedule, answered as expected, failed. */
export const TALLY_FIELDS = 3;

/** One tally, taken at a progress tick. */
export interface LiveTally {
  /** Request labels, in the plan's order (the groups of each stage and interval). */
  labelCount: number;
  /** Per stage, then label: scheduled, ok, failed. */
  stages: Float64Array;
  /**
   * The intervals open at the tick (requests outstanding, or not yet over), the ones closing at it
   * included, so every interval's final counts are in some tally: per label, scheduled, ok, failed.
   */
  intervals: { index: number; counts: Float64Array }[];
  /** Offset from the schedule's start the tally was taken at, in milliseconds. */
  atMs: number;
  /** The longest wait (ms) between a request's intended time and its being taken since the last tally. */
  dispatchLagMs: number;
}

/** What is known of one group of requests. */
export interface GroupCounts {
  scheduled: number;
  ok: number;
  failed: number;
}

/**
 * Adds the counts of `labels` (indexes) of one block (a stage's or an interval's) of `counts`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { groupCounts } from "./live_tally.ts";
 * assert.deepEqual(groupCounts(new Float64Array([5, 3, 1, 2, 2, 0]), 0, [0, 1]), { scheduled: 7, ok: 5, failed: 1 });
 * ```
 */
export function groupCounts(
  counts: Float64Array,
  offset: number,
  labels: readonly number[],
): GroupCounts {
  const g = { scheduled: 0, ok: 0, failed: 0 };
  for (const l of labels) {
    const at = offset + l * TALLY_FIELDS;
    g.scheduled += counts[at];
    g.ok += counts[at + 1];
    g.failed += counts[at + 2];
  }
  return g;
}

/**
 * The tallies of several engines (the workers of one run) added up. Each engine's latest tally is
 * kept, and each interval's latest counts from each engine, so an interval one engine closed
 * between two sums is still counted. A sum's intervals are those some engine reported since the
 * previous sum; its time is the earliest engine's, so an age judged at it holds for every engine.
 */
export class TallySum {
  readonly #parts = new Map<
    number,
    { tally: LiveTally; intervals: Map<number, Float64Array>; lagMs: number }
  >();
  readonly #touched = new Set<number>();

  /** Takes engine `part`'s newest tally. */
  add(part: number, tally: LiveTally): void {
    let p = this.#parts.get(part);
    if (p === undefined) this.#parts.set(part, p = { tally, intervals: new Map(), lagMs: 0 });
    p.tally = tally;
    p.lagMs = Math.max(p.lagMs, tally.dispatchLagMs);
    for (const i of tally.intervals) {
      p.intervals.set(i.index, i.counts);
      this.#touched.add(i.index);
    }
  }

  /** The sum of every engine's latest tally. */
  sum(): LiveTally {
    const parts = [...this.#parts.values()];
    const first = parts[0].tally;
    const stages = new Float64Array(first.stages.length);
    for (const p of parts) p.tally.stages.forEach((v, i) => stages[i] += v);
    const width = first.labelCount * TALLY_FIELDS;
    const intervals = [...this.#touched].sort((a, b) => a - b).map((index) => {
      const counts = new Float64Array(width);
      for (const p of parts) p.intervals.get(index)?.forEach((v, i) => counts[i] += v);
      return { index, counts };
    });
    this.#touched.clear();
    const dispatchLagMs = Math.max(...parts.map((p) => p.lagMs));
    for (const p of parts) p.lagMs = 0;
    return {
      labelCount: first.labelCount,
      stages,
      intervals,
      atMs: Math.min(...parts.map((p) => p.tally.atMs)),
      dispatchLagMs,
    };
  }
}
