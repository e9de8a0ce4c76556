/**
 * What a stage's summary hides, read from its per-second intervals and its histogram (Matthias
 * Lee: summaries hide trends and stalls; keep time-domain data and test it):
 *
 * - **trend** (constant-rate stages): a robust slope of the per-interval p50 and p99 over time
 *   (Theil–Sen: the median of the slopes between every pair of intervals, with Sen's 95% interval
 *   from Kendall's statistic), in µs per minute; `significant` when the interval excludes zero.
 * - **stalls**: read off the series the latency chart plots, each second's max: seconds in which
 *   nothing was answered while requests were due, or whose max stands out, over
 *   {@linkcode STALL_FACTOR}× the stage's median response time, over {@linkcode STALL_MIN_US}, and
 *   over {@linkcode STALL_SECOND_FACTOR}× the stage's ordinary second's max (so a busy machine's
 *   seconds, whose worst requests reach tens of milliseconds, neither count nor join two freezes
 *   into one); consecutive ones are one stall, and one under way when the stage began is the
 *   stage before's; with their start times and, from three on, their period when they are
 *   regular.
 * - **shape**: whether the response-time distribution has two separate modes (two peaks on a log
 *   scale, each with at least {@linkcode MODE_MIN_SHARE} of the requests, a valley between them).
 *
 * Pure: computed once when the result is built and stored in each measured stage.
 *
 * @module
 */
import { decodeHistogram } from "../hdr/mod.ts";
import type { IntervalResult, StageResult, StageTimeDomain } from "../model/mod.ts";

/** An interval is a stall when its max exceeds this many times the stage's median response time. */
export const STALL_FACTOR = 5;
/** …and this many microseconds (a VM's own pauses reach several milliseconds)… */
export const STALL_MIN_US = 20_000;
/**
 * …and this many times the stage's ordinary second's max (a decade above the chart's max line):
 * what the machine does to every second is no stall.
 */
export const STALL_SECOND_FACTOR = 10;
/** Stall gaps may differ by this share of their median (or by one interval) for a period. */
export const STALL_PERIOD_SPREAD = 0.1;
/** Intervals needed for a trend: fewer give no slope worth stating. */
export const MIN_TREND_INTERVALS = 10;
/** A mode must hold at least this share of the requests. */
export const MODE_MIN_SHARE = 0.02;

/**
 * The time-domain analysis of one stage.
 */
export function analyseStage(
  intervals: readonly IntervalResult[],
  responseHdr: string,
  stageP50Us: number,
  withTrend = true,
  before?: IntervalResult,
): StageTimeDomain {
  // Whole intervals only: a stage's last, shorter one holds too few requests to weigh the same.
  const whole = intervals.filter((i) => i.durationMs >= 900 && i.counts.completed > 0);
  const minutes = (i: IntervalResult) => (i.startMs + i.durationMs / 2) / 60_000;
  const trend = (p: "50" | "99") =>
    theilSen(whole.map((i) => [minutes(i), i.response.percentilesUs[p] ?? 0]));
  const p50 = withTrend ? trend("50") : undefined;
  const p99 = withTrend ? trend("99") : undefined;
  return {
    ...(p50 ? { trendP50UsPerMin: p50 } : {}),
    ...(p99 ? { trendP99UsPerMin: p99 } : {}),
    ...stalls(intervals, stageP50Us, before),
    bimodal: twoModes(responseHdr),
  };
}

/**
 * The stages with their time-domain analysis (measured stages only; a warmup's is not judged or
 * shown), computed from the run's intervals; any earlier analysis (a shard's) is replaced.
 */
export function withTimeDomain(
  stages: readonly StageResult[],
  intervals: readonly IntervalResult[],
): StageResult[] {
  return stages.map(({ timeDomain: _stale, ...stage }) =>
    stage.warmup || stage.counts.completed === 0 ? stage : {
      ...stage,
      timeDomain: analyseStage(
        intervals.filter((i) => i.stageIndex === stage.index),
        stage.response.hdr,
        stage.response.percentilesUs["50"] ?? 0,
        // In a ramp the rate moves: a slope there is the load's, not drift over time.
        stage.kind === "constant",
        intervals.findLast((i) => i.startMs < stage.startMs && i.stageIndex !== stage.index),
      ),
    }
  );
}

/**
 * Theil–Sen slope of `points` with Sen's 95% interval; undefined below
 * {@linkcode MIN_TREND_INTERVALS} points.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { theilSen } from "./time_domain.ts";
 * assert.equal(theilSen(Array.from({ length: 12 }, (_, i) => [i, 3 * i + 1]))?.slope, 3);
 * ```
 */
export function theilSen(
  points: readonly (readonly [number, number])[],
): { slope: number; low: number; high: number; significant: boolean } | undefined {
  const n = points.length;
  if (n < MIN_TREND_INTERVALS) return undefined;
  const slopes: number[] = [];
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const dx = points[j][0] - points[i][0];
      if (dx !== 0) slopes.push((points[j][1] - points[i][1]) / dx);
    }
  }
  if (slopes.length === 0) return undefined;
  slopes.sort((a, b) => a - b);
  const m = slopes.length;
  const median = m % 2 ? slopes[(m - 1) / 2] : (slopes[m / 2 - 1] + slopes[m / 2]) / 2;
  // Sen (1968): C = z · sqrt(n(n−1)(2n+5)/18); the interval is the slopes ranked (m−C)/2 and
  // (m+C)/2 + 1 (1-based).
  const c = 1.96 * Math.sqrt(n * (n - 1) * (2 * n + 5) / 18);
  const lowRank = Math.max(1, Math.floor((m - c) / 2));
  const highRank = Math.min(m, Math.ceil((m + c) / 2) + 1);
  const low = slopes[lowRank - 1];
  const high = slopes[highRank - 1];
  return { slope: median, low, high, significant: low > 0 || high < 0 };
}

/**
 * The floor of the max above which an interval is a stall, for a stage whose median response time
 * is `stageP50Us`: max({@linkcode STALL_FACTOR} × p50, {@linkcode STALL_MIN_US}). A stage's own
 * threshold ({@linkcode stallThresholdOf}) is never below it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { stallThresholdUs } from "./time_domain.ts";
 * assert.equal(stallThresholdUs(1_000), 20000); // the 20 ms floor
 * assert.equal(stallThresholdUs(10_000), 50000);
 * ```
 */
export function stallThresholdUs(stageP50Us: number): number {
  return Math.max(STALL_FACTOR * stageP50Us, STALL_MIN_US);
}

/**
 * The max above which one of `maxesUs` (a stage's seconds' maxima, the chart's max line) stands
 * out: over {@linkcode stallThresholdUs} and over {@linkcode STALL_SECOND_FACTOR}× the stage's
 * ordinary second's max. The ordinary second is the median of the seconds (the lower middle one,
 * the ⌊n/2⌋-th smallest of n, so a freeze spread over two seconds of a three-second stage still
 * stands out), unless that second itself stands out from the lowest quarter (over the factor × the
 * ⌊n/4⌋-th smallest): then freezes have spilled into most of the stage's seconds (a 500 ms freeze
 * every 3 s, each across two seconds), and the ordinary second is the highest below it that does
 * not. A busy machine's seconds, spread evenly up to tens of milliseconds, keep the median.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { stallThresholdOf } from "./time_domain.ts";
 * assert.equal(stallThresholdOf([1_000_000, 3_000, 2_000, 4_000], 500), 30000); // 10 × 3 ms
 * // Eight of twelve seconds hold a freeze's 500 ms or its drain's 280 ms: the bar is 10 × 36 ms.
 * const spilled = [496, 276, 26, 496, 276, 25, 500, 281, 36, 497, 277, 4].map((ms) => ms * 1000);
 * assert.equal(stallThresholdOf(spilled, 1_600), 360_000);
 * assert.equal(stallThresholdOf([1_000_000], 500), 20000); // nothing to stand out from
 * ```
 */
export function stallThresholdOf(maxesUs: readonly number[], stageP50Us: number): number {
  const floorUs = stallThresholdUs(stageP50Us);
  if (maxesUs.length < 2) return floorUs;
  const sorted = [...maxesUs].sort((a, b) => a - b);
  const quarterUs = sorted[Math.max(0, Math.floor(sorted.length / 4) - 1)];
  let ordinary = Math.floor(sorted.length / 2) - 1;
  while (ordinary > 0 && sorted[ordinary] > STALL_SECOND_FACTOR * quarterUs) ordinary--;
  return Math.max(floorUs, STALL_SECOND_FACTOR * sorted[ordinary]);
}

function stalls(
  intervals: readonly IntervalResult[],
  stageP50Us: number,
  before: IntervalResult | undefined,
): Pick<StageTimeDomain, "stalls" | "stallPeriodMs" | "stallThresholdUs"> {
  const maxesUs = intervals.filter((i) => i.response.count > 0).map((i) => i.response.maxUs);
  const thresholdUs = stallThresholdOf(maxesUs, stageP50Us);
  const stalled = (i: IntervalResult) =>
    (i.intendedPerSec > 0 && i.completedPerSec === 0) || i.response.maxUs > thresholdUs;
  const found: StageTimeDomain["stalls"] = [];
  // A stall under way when the stage began is the stage before's: one spike on the chart.
  let carried = before !== undefined && stalled(before);
  let previousEndMs = carried ? intervals[0]?.startMs ?? 0 : -Infinity;
  for (const i of intervals) {
    if (!stalled(i)) {
      carried = false;
      continue;
    }
    const joins = i.startMs <= previousEndMs;
    previousEndMs = i.startMs + i.durationMs;
    if (carried && joins) continue;
    carried = false;
    const silent = i.intendedPerSec > 0 && i.completedPerSec === 0;
    const last = found[found.length - 1];
    if (last !== undefined && joins) {
      // One stall spanning consecutive intervals is one stall.
      last.maxUs = Math.max(last.maxUs, i.response.maxUs);
      if (silent) last.why = "nothing answered";
    } else {
      found.push({
        startMs: i.startMs,
        maxUs: i.response.maxUs,
        why: silent ? "nothing answered" : "slow",
      });
    }
  }
  const periodMs = regularPeriodMs(
    found.map((s) => s.startMs),
    Math.max(0, ...intervals.map((i) => i.durationMs)),
  );
  return {
    stalls: found,
    stallThresholdUs: thresholdUs,
    ...(periodMs === undefined ? {} : { stallPeriodMs: periodMs }),
  };
}

/**
 * The period of stalls starting at `startsMs`, from three on, when they are regular: the median
 * gap, when the gaps differ by no more than {@linkcode STALL_PERIOD_SPREAD} of it or, since start
 * times are whole intervals, one `intervalMs`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { regularPeriodMs } from "./time_domain.ts";
 * assert.equal(regularPeriodMs([2_000, 6_000, 11_000, 16_000], 1_000), 5000);
 * assert.equal(regularPeriodMs([3_000, 8_000, 11_000], 1_000), undefined); // 5 s, then 3 s
 * ```
 */
export function regularPeriodMs(
  startsMs: readonly number[],
  intervalMs: number,
): number | undefined {
  if (startsMs.length < 3) return undefined;
  const gaps = startsMs.slice(1).map((s, k) => s - startsMs[k]).sort((a, b) => a - b);
  const n = gaps.length;
  const median = n % 2 ? gaps[(n - 1) / 2] : (gaps[n / 2 - 1] + gaps[n / 2]) / 2;
  const spread = gaps[n - 1] - gaps[0];
  return spread <= Math.max(STALL_PERIOD_SPREAD * median, intervalMs) ? median : undefined;
}

/**
 * Whether a histogram has two separate modes: on a log scale (four bins per doubling), two local
 * peaks holding at least {@linkcode MODE_MIN_SHARE} of the count each, with a valley between them
 * below a quarter of the smaller peak.
 */
export function twoModes(hdr: string): StageTimeDomain["bimodal"] {
  const histogram = decodeHistogram(hdr);
  const bins = new Map<number, number>();
  let total = 0;
  for (const { valueUs, count } of histogram.recordedValues()) {
    const bin = Math.floor(4 * Math.log2(Math.max(1, valueUs)));
    bins.set(bin, (bins.get(bin) ?? 0) + count);
    total += count;
  }
  if (total === 0) return { flagged: false };
  const lo = Math.min(...bins.keys());
  const hi = Math.max(...bins.keys());
  const density = Array.from({ length: hi - lo + 1 }, (_, k) => bins.get(lo + k) ?? 0);
  // The mass of a peak is its bin and its neighbours (a mode may straddle two bins).
  const mass = (k: number) => (density[k - 1] ?? 0) + density[k] + (density[k + 1] ?? 0);
  const peaks: number[] = [];
  for (let k = 0; k < density.length; k++) {
    const isPeak = density[k] > 0 && density[k] >= (density[k - 1] ?? 0) &&
      density[k] > (density[k + 1] ?? 0);
    if (isPeak && mass(k) >= MODE_MIN_SHARE * total) peaks.push(k);
  }
  for (let a = 0; a < peaks.length; a++) {
    for (let b = a + 1; b < peaks.length; b++) {
      const valley = Math.min(...density.slice(peaks[a] + 1, peaks[b]));
      const smaller = Math.min(density[peaks[a]], density[peaks[b]]);
      if (peaks[b] - peaks[a] >= 2 && valley < smaller / 4) {
        const valueOf = (k: number) => Math.round(2 ** ((lo + k + 0.5) / 4));
        return { flagged: true, modesUs: [valueOf(peaks[a]), valueOf(peaks[b])] };
      }
    }
  }
  return { flagged: false };
}
