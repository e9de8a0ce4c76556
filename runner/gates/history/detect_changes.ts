/**
 * The change points of one series of per-run values, found as Apache Otava finds them (0.8.0,
 * after Fleming et al. 2023) where the data allow: E-divisive means (Matteson & James 2014) over
 * sliding windows of `windowRuns` runs at a relaxed p-value (the split step), then each point
 * tested against its neighbours and the weakest dropped one at a time (the merge step). What
 * tailgate does differently, and why (docs/decisions/change_point_detector.md has the numbers):
 *
 * - **Significance that survives real tails.** The real runs' p90–p99.9 jump 2–5× for one run in
 *   ten; Otava's t-test reads such spikes as changes (up to 8 false points in 500 stationary
 *   runs) and E-divisive on the raw values spends its splits on them. So the split step runs
 *   twice, on the values (Otava's) and on each window's ranks, and the weak points are Otava's
 *   plus the ranked run's that lie more than 2 runs from one of Otava's; the merge step tests a
 *   point by shuffling (`_shuffle_scan.ts`: its split against the best split of the same values
 *   shuffled, on the values and on their ranks, up to 10 000 shuffles), which also pays for the
 *   split having been chosen as the best of many. `pValue` is that test's; when no shuffle reached
 *   the split on one scale it is the floor of the shuffles run, 2 / (1 + shuffles) (0.00067 from
 *   2999 at the default), an upper bound, and `pAtFloor` says so. One or two runs after a change never reach
 *   p ≤ 0.001: as far as the data can tell, they are a spike.
 * - **The minimum magnitude judges the interval, not the estimate.** Otava drops a point whose
 *   measured magnitude is ≤ the minimum. Here a point is dropped only when the whole 95% interval
 *   of its relative change lies within ×/÷ (1 + minimum) (the interval's far end from no change,
 *   as a log ratio, is below ln(1 + minimum)): a true 5% step measured as 4.9% is kept, a 1%
 *   wobble is not, and a fall counts as the rise by the same factor does. The relative change is
 *   meanAfter / meanBefore − 1; its interval is computed on the log-ratio scale (the delta method:
 *   ln of the ratio ± t · √(s₁²/(n₁m₁²) + s₂²/(n₂m₂²)), Welch's degrees of freedom) and converted
 *   back, so it never passes −100%. Each change also carries the difference of the means
 *   (`absoluteChange`, in the values' unit) with its Welch interval: an error rate's change in
 *   points.
 * - **Zero means.** The relative change compares max(mean, 0.001 × the larger mean) on either
 *   side, so a change from zero (an error rate 0 → 0.2%) is ×1000 (+99 900%), never a division by
 *   zero.
 * - **The merge step recomputes both neighbours** of a dropped point (Otava recomputes the one
 *   after it and the next, leaving the one before it with its old figures).
 * - **A slow creep is one trend, not a cascade of steps.** Each run of consecutive changes in the
 *   same direction (a single change too) is refitted over its span (from the change before it to
 *   the change after it) as a ramp: flat, a straight line from run `index` to run `endIndex`, flat.
 *   When the ramp's BIC beats the steps' (4 parameters against 2k + 1 for k steps), the ramp spans
 *   at least {@linkcode MIN_TREND_RUNS} runs, and a straight line fitted to the ramp's runs has a
 *   slope with p ≤ maxPValue (Student's t) and a relative change (the line's end / its start − 1,
 *   its interval on the log-ratio scale from the line's) that passes the magnitude rule, the steps
 *   are that one trend.
 *   A group's first change stays a step, the rest its trend, when a level lies on either side of
 *   it (`stepThenTrend`): a step followed by a creep is not one creep from before the step.
 *
 * @module
 */
import { type ChangeOptions, resolveChangeOptions, type SeriesChange } from "./series_change.ts";
import { checkFinite } from "./otava_change_points.ts";
import { absoluteChangeOf, logReach, relativeChangeOf, sideOf } from "./_two_sample.ts";
import { splitIndexSteps, type WeakPoint } from "./_split_step.ts";
import { drained, type Steps } from "../../model/mod.ts";
import { shuffleScan, shufflesFor } from "./_shuffle_scan.ts";
import { trendOf } from "./_trend_of.ts";
import { bestRamp, bic } from "./_trend.ts";

/** A ranked split's point this close to one of Otava's is the same change. */
const NEAR_RUNS = 2;

/** The fewest runs a trend's line spans (endIndex − index): a shorter ramp is a step. */
export const MIN_TREND_RUNS = 4;

/**
 * Every change in `values` (finite numbers, oldest first), in index order. Pure and deterministic;
 * a RangeError for a value that is not finite or an option out of range.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { detectChanges } from "./detect_changes.ts";
 * const values = Array.from({ length: 60 }, (_, i) => (i < 30 ? 100 : 120) + (i % 4));
 * const [change] = detectChanges(values);
 * assert.equal(change.kind, "step");
 * assert.equal(change.index, 30);
 * assert.ok(Math.abs(change.relativeChange - 0.2) < 0.01);
 * ```
 */
export function detectChanges(values: readonly number[], options?: ChangeOptions): SeriesChange[] {
  return drained(changeSteps(values, options));
}

/**
 * {@linkcode detectChanges} in steps: one a window of the split step, a point tested, a group of
 * changes refitted; the same changes at its end. Throws as detectChanges does, at its first step.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { changeSteps, detectChanges } from "./detect_changes.ts";
 * const values = Array.from({ length: 60 }, (_, i) => (i < 30 ? 100 : 120) + (i % 4));
 * const steps = changeSteps(values);
 * let next = steps.next();
 * assert.equal(next.done, false);
 * while (!next.done) next = steps.next();
 * assert.deepEqual(next.value, detectChanges(values));
 * ```
 */
export function* changeSteps(
  values: readonly number[],
  options?: ChangeOptions,
): Steps<SeriesChange[]> {
  const resolved = resolveChangeOptions(options);
  checkFinite(values);
  const { windowRuns, maxPValue } = resolved;
  const indexes = unionOf(
    yield* splitIndexSteps(values, windowRuns, maxPValue),
    yield* splitIndexSteps(values, windowRuns, maxPValue, true),
  );
  const test = (from: number, index: number, to: number) =>
    tested(values, from, index, to, resolved);
  const points: WeakPoint[] = [];
  for (const [k, index] of indexes.entries()) {
    points.push(test(k === 0 ? 0 : indexes[k - 1], index, indexes[k + 1] ?? values.length));
    yield;
  }
  yield* merge(points, values.length, test, resolved);
  const changes: SeriesChange[] = [];
  for (let first = 0; first < points.length;) {
    const direction = directionOf(points[first]);
    let last = first;
    while (last + 1 < points.length && directionOf(points[last + 1]) === direction) last++;
    const group = points.slice(first, last + 1);
    const from = first === 0 ? 0 : points[first - 1].index;
    const to = points[last + 1]?.index ?? values.length;
    const trend = trendOf(values, from, to, group, direction, resolved, MIN_TREND_RUNS);
    const stepFirst = stepThenTrend(values, [from, to], [group, direction], resolved);
    changes.push(...(stepFirst ?? (trend ? [trend] : group.map(stepOf))));
    first = last + 1;
    yield;
  }
  return changes;
}

/**
 * A group's first change as a step and the rest as a trend, when that explains the span better
 * (BIC: the flat before the step, then a ramp, 6 parameters, against one ramp over it all, 4) and
 * the rest is a trend by itself: a step followed by a creep is not read as one creep starting
 * before the step. The step needs a level on either side: the runs before it flat (a ramp does
 * not explain them better, by BIC), and the ramp after it starting at least
 * {@linkcode MIN_TREND_RUNS} runs later.
 */
function stepThenTrend(
  values: readonly number[],
  [from, to]: [number, number],
  [group, direction]: [WeakPoint[], number],
  options: Required<ChangeOptions>,
): SeriesChange[] | undefined {
  if (group.length < 2) return undefined;
  const whole = bestRamp(values, from, to);
  const after = bestRamp(values, group[0].index, to);
  // A level between the step and the creep: a creep cut in two leaves none.
  if (whole === undefined || after === undefined) return undefined;
  if (after.start - group[0].index < MIN_TREND_RUNS) return undefined;
  // A level before it too: a step cut out of a creep has part of the creep before it.
  const before = bestRamp(values, from, group[0].index);
  const flatBefore = group[0].before;
  if (
    before !== undefined &&
    bic(before.rss, flatBefore.count, 4, scaleOf(group)) <
      bic(flatBefore.squares, flatBefore.count, 1, scaleOf(group))
  ) return undefined;
  const count = to - from;
  const scale = scaleOf(group);
  const split = group[0].before.squares + after.rss;
  if (bic(split, count, 6, scale) >= bic(whole.rss, count, 4, scale)) return undefined;
  const rest = group.slice(1);
  const trend = trendOf(values, group[0].index, to, rest, direction, options, MIN_TREND_RUNS);
  return trend ? [stepOf(group[0]), trend] : undefined;
}

/** The values' size, for BIC's floor on a residual sum of squares. */
function scaleOf(group: WeakPoint[]): number {
  return Math.abs(group[0].before.mean) + Math.abs(group[0].after.mean);
}

type Test = (from: number, index: number, to: number) => WeakPoint;

/** Otava's points and the ranked split's, less those within 2 runs of one of Otava's. */
function unionOf(otava: number[], ranked: number[]): number[] {
  const near = (index: number) => otava.some((point) => Math.abs(point - index) <= NEAR_RUNS);
  return [...otava, ...ranked.filter((index) => !near(index))].sort((a, b) => a - b);
}

/** The point at `index` with the sides [from, index) and [index, to), by the rank scan. */
function tested(
  values: readonly number[],
  from: number,
  index: number,
  to: number,
  { maxPValue }: Required<ChangeOptions>,
): WeakPoint {
  const test = shuffleScan(values, from, index, to, maxPValue, shufflesFor(maxPValue));
  return {
    index,
    before: sideOf(values, from, index),
    after: sideOf(values, index, to),
    ...test,
  };
}

/** Drops the weakest point while its p-value is not below maxPValue or it is too small. */
function* merge(
  points: WeakPoint[],
  count: number,
  test: Test,
  options: Required<ChangeOptions>,
): Steps<void> {
  while (points.length > 0) {
    const pValues = points.map((point) => point.pValue);
    let weakest = pValues.indexOf(Math.max(...pValues));
    if (pValues[weakest] < options.maxPValue) {
      const reaches = points.map((point) =>
        logReach(relativeChangeOf(point.before, point.after).interval95)
      );
      weakest = reaches.indexOf(Math.min(...reaches));
      if (reaches[weakest] >= Math.log1p(options.minMagnitude)) return;
    }
    points.splice(weakest, 1);
    for (const k of [weakest - 1, weakest]) {
      if (k < 0 || k >= points.length) continue;
      points[k] = test(
        k === 0 ? 0 : points[k - 1].index,
        points[k].index,
        points[k + 1]?.index ?? count,
      );
      yield;
    }
  }
}

/** +1 for a rise, −1 for a fall. */
function directionOf(point: WeakPoint): number {
  return Math.sign(point.after.mean - point.before.mean);
}

function stepOf({ index, before, after, pValue, shuffles, atFloor }: WeakPoint): SeriesChange {
  return {
    kind: "step",
    index,
    endIndex: index,
    meanBefore: before.mean,
    meanAfter: after.mean,
    runsBefore: before.count,
    runsAfter: after.count,
    ...relativeChangeOf(before, after),
    ...absoluteChangeOf(before, after),
    pValue,
    pAtFloor: atFloor ?? false,
    ...(shuffles === undefined ? {} : { shuffles }),
  };
}
