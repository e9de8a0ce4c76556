/**
 * The windows a windowed SLO (`p99 < 50ms over 10s`) is judged in: every run of `windowMs / 1000`
 * consecutive 1 s intervals filed to a bound stage (an interval belongs to the stage it starts in),
 * stepping by one interval. Windows never bridge a gap: stages bound by `at RATE` that are not
 * adjacent give separate runs of intervals. Each window's figures are the exact sum of its
 * intervals' histograms and counts. Pure.
 *
 * @module
 */
import { createHistogram, decodeHistogram, type Histogram, type SparseCounts } from "../hdr/mod.ts";
import { addCounts, emptyCounts } from "../recorder/request_counts.ts";
import type { IntervalResult, RequestCounts } from "../model/run_result.ts";

/** One window's merged measurements. */
export interface MeasuredWindow {
  /** Offset of the window's start from the run's start. */
  startMs: number;
  /** Length of the window (its last interval may be shorter: the schedule's end). */
  durationMs: number;
  /** The stage the window starts in. */
  stageIndex: number;
  response: Histogram;
  counts: RequestCounts;
}

/**
 * The windows of `windowMs` over the intervals of `stageIndexes`, for `label` (or every request).
 * The response histogram of each window is a fresh one; intervals are decoded once.
 *
 * @example
 * ```ts
 * import { measuredWindows } from "./measured_windows.ts";
 * measuredWindows([], [1], 10_000).length; // 0: no interval, no window
 * ```
 */
export function measuredWindows(
  intervals: readonly IntervalResult[],
  stageIndexes: readonly number[],
  windowMs: number,
  label?: string,
): MeasuredWindow[] {
  const width = Math.max(1, Math.round(windowMs / 1000));
  const bound = new Set(stageIndexes);
  const runs: IntervalResult[][] = [];
  for (const interval of intervals) {
    if (!bound.has(interval.stageIndex)) continue;
    const run = runs.at(-1);
    const last = run?.at(-1);
    if (run && last && Math.abs(last.startMs + last.durationMs - interval.startMs) < 1) {
      run.push(interval);
    } else runs.push([interval]);
  }
  const windows: MeasuredWindow[] = [];
  for (const run of runs) {
    const parts = run.map((interval) => part(interval, label));
    for (let first = 0; first + width <= run.length; first++) {
      const response = createHistogram();
      const counts = emptyCounts();
      let durationMs = 0;
      for (let i = first; i < first + width; i++) {
        if (parts[i].sparse) response.addSparse(parts[i].sparse!);
        addCounts(counts, parts[i].counts);
        durationMs += run[i].durationMs;
      }
      windows.push({
        startMs: run[first].startMs,
        durationMs,
        stageIndex: run[first].stageIndex,
        response,
        counts,
      });
    }
  }
  return windows;
}

function part(
  interval: IntervalResult,
  label: string | undefined,
): { sparse?: SparseCounts; counts: RequestCounts } {
  const group = label === undefined ? interval : interval.labels.find((l) => l.label === label);
  if (group === undefined) return { counts: emptyCounts() };
  return {
    sparse: group.response.count > 0 ? decodeHistogram(group.response.hdr).toSparse() : undefined,
    counts: group.counts,
  };
}
