/**
 * A group of same-direction steps told apart from a creep: the group's span refitted as a ramp
 * and, when the ramp explains it better (BIC) and its line is significant and large enough, one
 * trend in place of the steps.
 *
 * @module
 */
import type { ChangeOptions, SeriesChange } from "./series_change.ts";
import type { WeakPoint } from "./_split_step.ts";
import { bestRamp, bic, trendLine } from "./_trend.ts";
import { logReach } from "./_two_sample.ts";

/**
 * The trend that replaces `group` (consecutive steps in `direction`, spanning values[from, to)),
 * or undefined when the steps explain the span as well.
 */
export function trendOf(
  values: readonly number[],
  from: number,
  to: number,
  group: WeakPoint[],
  direction: number,
  options: Required<ChangeOptions>,
  minTrendRuns: number,
): SeriesChange | undefined {
  const ramp = bestRamp(values, from, to);
  if (ramp === undefined || ramp.end - ramp.start < minTrendRuns) return undefined;
  const count = to - from;
  const stepsRss = group.reduce((sum, point) => sum + point.after.squares, group[0].before.squares);
  const scale = Math.abs(group[0].before.mean) + Math.abs(group[0].after.mean);
  const parameters = 2 * group.length + 1;
  if (bic(ramp.rss, count, 4, scale) >= bic(stepsRss, count, parameters, scale)) return undefined;
  const line = trendLine(values, ramp.start, ramp.end);
  if (line === undefined || !(line.pValue <= options.maxPValue)) return undefined;
  const reach = logReach(line.interval95);
  if (Math.sign(line.relativeChange) !== direction || reach < Math.log1p(options.minMagnitude)) {
    return undefined;
  }
  const runs = ramp.end - ramp.start + 1;
  return {
    kind: "trend",
    index: ramp.start,
    endIndex: ramp.end,
    meanBefore: line.fittedStart,
    meanAfter: line.fittedEnd,
    runsBefore: runs,
    runsAfter: runs,
    relativeChange: line.relativeChange,
    interval95: line.interval95,
    absoluteChange: line.absoluteChange,
    absoluteInterval95: line.absoluteInterval95,
    pValue: line.pValue,
    pAtFloor: false,
  };
}
