/**
 * Everything the HTML report's charts draw, built from the result alone; the page embeds it as
 * JSON and its script only styles and draws it.
 *
 * @module
 */
import type { RunResult } from "../../runner/model/run_result.ts";
import { type PercentileChartData, percentileViews } from "./percentile_views.ts";
import {
  type RampChartData,
  rampData,
  type TimelineChartData,
  timelineData,
} from "./timeline_data.ts";

/** The data of every chart; a chart whose data is absent is not drawn. */
export interface ChartData {
  /** Latency by percentile, per view. */
  percentile: PercentileChartData;
  /** Latency and throughput per interval; absent without intervals. */
  timeline?: TimelineChartData;
  /** Latency against intended rate; absent without a ramp stage. */
  ramp?: RampChartData;
}

/**
 * Builds the charts' data.
 */
export function buildChartData(result: RunResult): ChartData {
  const timeline = timelineData(result);
  const ramp = rampData(result);
  return {
    percentile: percentileViews(result),
    ...(timeline === undefined ? {} : { timeline }),
    ...(ramp === undefined ? {} : { ramp }),
  };
}
