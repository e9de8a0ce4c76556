/**
 * The windows a windowed SLO (`p99 < 50ms over 10s`) is judged in: every run of `windowMs / 1000`
 * consecutive 1 s intervals filed to a bound stage (an interval belongs to the stage it starts in),
 * stepping by one interval. Windows never bridge a gap: stages bound by `at RATE` that are not
 * adjacent give separate runs of intervals. Each window's figures are the exact sum of its
 * intervals' histograms and counts, kept as sparse counts (a few KB, where a histogram is 188 KB):
 * load one into a scratch histogram to read it. Pure.
 *
 * @module
 */
import { decodeHistogram, type Histogram, type SparseCounts } from "../../hdr/mod.ts";
import { addCounts, emptyCounts } from "../../model/mod.ts";
import type { IntervalResult, RequestCounts } from "../../model/mod.ts";
import type { ParsedSlo } from "../../plan/mod.ts";
import { seriesHistogram } from "./slo_scope.ts";

/** One window's merged measurements. */
export interface MeasuredWindow {
  /** Offset of the window's start from the run's start. */
  startMs: number;
  /** Length of the window (its last interval may be shorter: the schedule's end). */
  durationMs: number;
  /** The stage the window starts in. */
  stageIndex: number;
  /** The window's successful responses, as sparse counts of the project's histogram layout. */
  response: SparseCounts;
  counts: RequestCounts;
}

/**
 * The windows of `windowMs` over the intervals of `stageIndexes`, for `label` (or every request),
 * of the response times (or, for `series` `ttfb`, the times to first byte).
 * Intervals are decoded once.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { measuredWindows } from "./measured_windows.ts";
 * assert.equal(measuredWindows([], [1], 10_000).length, 0); // no interval, no window
 * ```
 */
export function measuredWindows(
  intervals: readonly IntervalResult[],
  stageIndexes: readonly number[],
  windowMs: number,
  label?: string,
  series?: ParsedSlo["series"],
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
    const parts = run.map((interval) => part(interval, label, series));
    if (parts.length < width) continue;
    // A running sum over the window's buckets: add the interval coming in, take away the one
    // going out. Counts are whole numbers, so the sums are exact.
    const size = 1 + Math.max(0, ...parts.map((p) => p.sparse?.indexes.at(-1) ?? 0));
    const running = new Float64Array(size);
    let durationMs = 0;
    const slide = (i: number, sign: 1 | -1) => {
      const sparse = parts[i].sparse;
      if (sparse) {
        for (let k = 0; k < sparse.indexes.length; k++) {
          running[sparse.indexes[k]] += sign * sparse.counts[k];
        }
      }
      durationMs += sign * run[i].durationMs;
    };
    for (let i = 0; i < run.length; i++) {
      slide(i, 1);
      if (i >= width) slide(i - width, -1);
      if (i < width - 1) continue;
      const first = i - width + 1;
      const windowCounts = emptyCounts();
      for (let k = first; k <= i; k++) addCounts(windowCounts, parts[k].counts);
      windows.push({
        startMs: run[first].startMs,
        durationMs,
        stageIndex: run[first].stageIndex,
        response: sparseOf(running),
        counts: windowCounts,
      });
    }
  }
  return windows;
}

/**
 * Loads a window's responses into `scratch` (emptied first) and returns it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createHistogram } from "../../hdr/mod.ts";
 * import { loadWindow } from "./measured_windows.ts";
 * const h = createHistogram();
 * h.recordValue(1_000);
 * assert.equal(loadWindow(createHistogram(), { response: h.toSparse() }).totalCount, 1);
 * ```
 */
export function loadWindow(scratch: Histogram, w: Pick<MeasuredWindow, "response">): Histogram {
  scratch.reset();
  scratch.addSparse(w.response);
  return scratch;
}

function sparseOf(running: Float64Array): SparseCounts {
  let n = 0;
  for (let i = 0; i < running.length; i++) if (running[i] > 0) n++;
  const indexes = new Uint32Array(n);
  const counts = new Float64Array(n);
  for (let i = 0, k = 0; i < running.length; i++) {
    if (running[i] > 0) {
      indexes[k] = i;
      counts[k++] = running[i];
    }
  }
  return { indexes, counts };
}

function part(
  interval: IntervalResult,
  label: string | undefined,
  series: ParsedSlo["series"],
): { sparse?: SparseCounts; counts: RequestCounts } {
  const group = label === undefined ? interval : interval.labels.find((l) => l.label === label);
  if (group === undefined) return { counts: emptyCounts() };
  const latency = seriesHistogram(group, series);
  return {
    sparse: latency !== undefined && latency.count > 0
      ? decodeHistogram(latency.hdr).toSparse()
      : undefined,
    counts: group.counts,
  };
}
