/**
 * Which way a change went, said only as far as its interval shows: for the worse or the better
 * when the whole 95% interval of its figure (an error rate's in points, any other's relative) lies
 * on one side of no change; `unclear` when the interval includes no change. A change whose
 * interval includes 0 is found (its split passed the shuffle test: the runs' order or ranks moved)
 * but its size is not known to be other than none: it is reported as such and fails nothing.
 *
 * @module
 */
import {
  changeFigure,
  type HistoryChangeDirection,
  type HistoryMetric,
  type HistoryUnit,
  type SeriesChange,
} from "../../model/history_result.ts";
import { higherIsWorse } from "./history_series.ts";

/**
 * The direction of `change` in a series of `metric` (in `unit`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { changeDirection } from "./change_direction.ts";
 * const change = (low: number, high: number) => ({
 *   relativeChange: (low + high) / 2,
 *   interval95: [low, high] as [number, number],
 *   absoluteChange: 0,
 *   absoluteInterval95: [0, 0] as [number, number],
 * });
 * assert.equal(changeDirection("p99", "us", change(0.02, 0.08)), "worse");
 * assert.equal(changeDirection("throughput", "per_sec", change(0.02, 0.08)), "better");
 * assert.equal(changeDirection("p90", "us", change(-0.038, 0.042)), "unclear");
 * ```
 */
export function changeDirection(
  metric: HistoryMetric,
  unit: HistoryUnit,
  change: Pick<
    SeriesChange,
    "relativeChange" | "interval95" | "absoluteChange" | "absoluteInterval95"
  >,
): HistoryChangeDirection {
  const [low, high] = changeFigure(unit, change).interval95;
  const up = low > 0;
  if (!up && !(high < 0)) return "unclear";
  return up === higherIsWorse(metric) ? "worse" : "better";
}
