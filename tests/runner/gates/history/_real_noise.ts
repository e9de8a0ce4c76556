/**
 * Noise from real runs for the detector's synthetic series. `fixtures/real_runs.json` holds 30
 * real runs' measured-stage figures (`bench/history_noise.sh`: nginx on one core, tailgate on the
 * other, on a machine other jobs shared; the script's runs 31–40 failed and repeated run 30's
 * result, so they are left out). Their spread holds level shifts (p50 ran 40% lower in runs
 * 12–17 while the machine was busier), which are changes, not noise: each run's noise is its log
 * ratio to the median of its four nearest neighbours (two either side, shifted at the ends), so a
 * shift lasting three runs or more leaves it while a one-run spike stays in the tails.
 *
 * @module
 */
import { Prng } from "../../../../runner/schedule/mod.ts";

/** The latency percentiles the runs measured with a spread (throughput and errors were flat). */
export const NOISE_METRICS = ["p50", "p90", "p99", "p99.9"] as const;

/** One of {@linkcode NOISE_METRICS}. */
export type NoiseMetric = typeof NOISE_METRICS[number];

type RealRun = Record<NoiseMetric | "throughput" | "error_rate", number>;

/** The real runs, in the order they ran. */
export const REAL_RUNS: RealRun[] = JSON.parse(
  Deno.readTextFileSync(new URL("./fixtures/real_runs.json", import.meta.url)),
);

/** The metric's values over the real runs. */
export function realValues(metric: keyof RealRun): number[] {
  return REAL_RUNS.map((run) => run[metric]);
}

/** Each real run's log ratio to the median of its four nearest neighbours. */
export function realResiduals(metric: NoiseMetric): number[] {
  const logs = realValues(metric).map(Math.log);
  return logs.map((value, i) => {
    const first = Math.min(Math.max(i - 2, 0), logs.length - 5);
    const others = logs.slice(first, first + 5).filter((_, k) => first + k !== i).sort((a, b) =>
      a - b
    );
    return value - (others[1] + others[2]) / 2;
  });
}

/**
 * `levels` (one per run, relative: 1 is the metric's real median) with real noise: each value is
 * median × level × e^r, r drawn with replacement from {@linkcode realResiduals}.
 */
export function noisySeries(
  metric: NoiseMetric,
  levels: readonly number[],
  seed: number,
): number[] {
  const residuals = realResiduals(metric);
  const sorted = realValues(metric).sort((a, b) => a - b);
  const median = (sorted[(sorted.length - 1) >> 1] + sorted[sorted.length >> 1]) / 2;
  const random = new Prng(seed);
  return levels.map((level) =>
    median * level * Math.exp(residuals[Math.floor(random.next() * residuals.length)])
  );
}

/** `runs` levels of 1, times `factor` from run `at` on: a step. */
export function stepLevels(runs: number, at: number, factor: number): number[] {
  return Array.from({ length: runs }, (_, i) => (i >= at ? factor : 1));
}

/** The log standard deviation of a metric's real residuals: its spread. */
export function realSpread(metric: NoiseMetric): number {
  const residuals = realResiduals(metric);
  return Math.sqrt(residuals.reduce((sum, r) => sum + r * r, 0) / residuals.length);
}

/**
 * As {@linkcode noisySeries}, the real residuals' shape (their tails, their skew) scaled to the
 * log standard deviation `spread`: the same kind of noise on a steadier runner or longer runs.
 */
export function scaledNoisySeries(
  metric: NoiseMetric,
  levels: readonly number[],
  seed: number,
  spread: number,
): number[] {
  const residuals = realResiduals(metric);
  const scale = spread / realSpread(metric);
  const random = new Prng(seed);
  return levels.map((level) =>
    100 * level * Math.exp(scale * residuals[Math.floor(random.next() * residuals.length)])
  );
}
