/**
 * The paired A/B decision, pure: base and head ran the same plan in k rounds on one machine, in a
 * random order within each round, so a round's two runs share that round's conditions (duet
 * benchmarking: Bulej et al. 2020; Laaber et al. 2019). Each round gives one paired change, the log
 * of head's figure over base's (for throughput base over head; for the error rate the difference in
 * points), so what the machine did to both cancels out. Over the rounds:
 *
 * - the estimate is the mean paired change (as a ratio: its geometric mean), with a Student-t
 *   interval from the rounds' spread (k − 1 degrees of freedom);
 * - the one-sided p-value of "head is no worse" feeds Holm's step-down over every check of the
 *   comparison, so one false alarm per comparison happens at most `1 − confidence` of the time;
 * - **regression** (fail): the change is worse than the floor and Holm rejects "no worse";
 *   **ok** (pass): the upper end of the one-sided 95% interval is within the floor (any slowdown
 *   is smaller than what counts); **inconclusive** otherwise, with the reason (more rounds narrow
 *   the interval). Holm's stricter level guards the false alarms; an `ok` needs only the ordinary
 *   95%, as a pass of the SLO gates does.
 *
 * **The floor** (the change that counts) is the largest of: the plan's floor, or without one a
 * documented minimum per metric; with a default floor, what the rounds' spread supports (twice the
 * one-sided 95% margin of the mean change: identical builds then pass about 95% of the time, so
 * the check decides), but never more than `spreadCap` (rounds that scattered decide no change a
 * team would want caught: undecided, not passed); and for a tail figure, the run's measured floor there (the
 * generator's own pauses) relative to base's median: a tail change smaller than what the tool
 * itself adds cannot be told from it.
 *
 * @module
 */
import { holmLevels } from "../stats/mod.ts";
import { tCdf, tQuantile } from "../stats/mod.ts";
import { median } from "../../result/mod.ts";

/** One (stage, label, metric) check's figures, one per round, paired by index. */
export interface PairedCheck {
  /** Base's figure in each round. */
  base: readonly number[];
  /** Head's figure in each round (same order). */
  head: readonly number[];
  /** `ratio`: latencies and throughput (relative change); `difference`: error rate (points). */
  scale: "ratio" | "difference";
  /** True for latencies and errors; false for throughput (a drop is worse). */
  higherIsWorse: boolean;
  /**
   * The change that counts (a fraction: 0.1 is 10%, or 0.1 points for a difference): the plan's,
   * or with `floorFromSpread` the documented minimum.
   */
  floor: number;
  /** The floor is a default: raise it to what the rounds' spread supports (see the module). */
  floorFromSpread?: boolean;
  /** The most the spread may raise the floor to (a fraction); none: no limit. */
  spreadCap?: number;
  /**
   * A floor in the figure's own unit that a ratio change must also pass relative to base's
   * median: the measured floor (µs) of a tail percentile.
   */
  absoluteFloor?: number;
}

/** Which limit set a check's floor. */
export type FloorSource = "plan" | "minimum" | "spread" | "measured";

/** The outcome of one check. */
export interface PairedOutcome {
  status: "pass" | "fail" | "inconclusive";
  /** The estimated change in the worse direction: +0.1 is 10% (or 0.1 points) worse. */
  change: number;
  /** The change's two-sided 95% interval, in the worse direction. */
  ci95: [number, number];
  /** The upper end of the one-sided 95% interval (what `ok` needs within the floor). */
  upper: number;
  /** One-sided p-value of "head is no worse than base". */
  p: number;
  /** The check's confidence under Holm's step-down. */
  confidence: number;
  /** The floor the change was judged against (the largest of the limits; see the module). */
  floor: number;
  /** Which limit it was. */
  floorSource: FloorSource;
  /** Why it is inconclusive. */
  reason?: string;
}

/** Fewest rounds that give an interval (two leave one degree of freedom). */
export const MIN_ROUNDS = 3;

/**
 * Judges every check of one comparison together (Holm's family-wise control).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { judgePaired } from "./paired_comparison.ts";
 * const [slower] = judgePaired([{
 *   base: [10, 10.2, 9.9, 10.1, 10], head: [11, 11.3, 10.8, 11.1, 11], scale: "ratio",
 *   higherIsWorse: true, floor: 0.05,
 * }]);
 * assert.equal(slower.status, "fail"); // 10% slower in every round
 * ```
 */
export function judgePaired(checks: readonly PairedCheck[], confidence = 0.999): PairedOutcome[] {
  const stats = checks.map(pairedStats);
  const levels = holmLevels(stats.map((s) => s?.p), 1 - confidence);
  return checks.map((check, i) => {
    const s = stats[i];
    const level = levels[i];
    const planned = check.floorFromSpread ? "minimum" as const : "plan" as const;
    if (s === undefined) {
      return {
        status: "inconclusive",
        change: 0,
        ci95: [-Infinity, Infinity],
        upper: Infinity,
        p: 1,
        confidence: level.confidence,
        floor: check.floor,
        floorSource: planned,
        reason: `${check.base.length} rounds: a paired interval needs ${MIN_ROUNDS} or more`,
      };
    }
    const t95 = tQuantile(0.975, s.df);
    const t95OneSided = tQuantile(0.95, s.df);
    const toChange = (x: number) => check.scale === "ratio" ? Math.exp(x) - 1 : x;
    const change = toChange(s.mean);
    const upper = toChange(s.mean + t95OneSided * s.se);
    const ci95: [number, number] = [toChange(s.mean - t95 * s.se), toChange(s.mean + t95 * s.se)];
    const { floor, floorSource } = floorOf(check, planned, toChange(2 * t95OneSided * s.se));
    const worse = change > floor && level.rejected && s.p <= 1 - level.confidence;
    const status = worse ? "fail" : upper <= floor ? "pass" : "inconclusive";
    const reason = status !== "inconclusive"
      ? undefined
      : floorSource === "spread" && floor === check.spreadCap
      ? `the rounds vary too much to rule out a change beyond ${+(floor * 100).toPrecision(
        3,
      )}%, the most a default floor may be: more rounds decide`
      : change > floor
      ? "worse than the floor, but within the rounds' spread (not beyond Holm's level): more rounds decide"
      : "the rounds' spread leaves room for a change beyond the floor: more rounds decide";
    return {
      status,
      change,
      ci95,
      upper,
      p: s.p,
      confidence: level.confidence,
      floor,
      floorSource,
      ...(reason === undefined ? {} : { reason }),
    };
  });
}

/** The largest of a check's limits (see the module), and which it was. */
function floorOf(
  check: PairedCheck,
  planned: FloorSource,
  spreadSupports: number,
): { floor: number; floorSource: FloorSource } {
  let floor = check.floor;
  let floorSource = planned;
  if (check.floorFromSpread && spreadSupports > floor) {
    floor = Math.max(floor, Math.min(spreadSupports, check.spreadCap ?? Infinity));
    floorSource = floor > check.floor ? "spread" : planned;
  }
  if (check.absoluteFloor !== undefined && check.scale === "ratio") {
    const base = median(check.base);
    const measured = base > 0 ? check.absoluteFloor / base : 0;
    if (measured > floor) {
      floor = measured;
      floorSource = "measured";
    }
  }
  return { floor, floorSource };
}

/** The paired changes' mean, standard error and p-value, in the worse direction. */
function pairedStats(
  c: PairedCheck,
): { mean: number; se: number; df: number; p: number } | undefined {
  const n = Math.min(c.base.length, c.head.length);
  if (n < MIN_ROUNDS) return undefined;
  const d: number[] = [];
  for (let i = 0; i < n; i++) {
    const sign = c.higherIsWorse ? 1 : -1;
    d.push(
      c.scale === "ratio"
        ? sign * (Math.log(Math.max(c.head[i], 1e-9)) - Math.log(Math.max(c.base[i], 1e-9)))
        : sign * (c.head[i] - c.base[i]),
    );
  }
  const mean = d.reduce((a, b) => a + b, 0) / n;
  const sd = Math.sqrt(d.reduce((a, x) => a + (x - mean) ** 2, 0) / (n - 1));
  const se = sd / Math.sqrt(n);
  // Identical rounds: no spread, the change is exact.
  if (se === 0) return { mean, se: 0, df: n - 1, p: mean > 0 ? 0 : 1 };
  return { mean, se, df: n - 1, p: 1 - tCdf(mean / se, n - 1) };
}
