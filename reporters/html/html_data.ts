/**
 * Everything the HTML report's charts draw, built from the result alone; the page embeds it as
 * JSON and its script only styles and draws it.
 *
 * @module
 */
import type { RunResult } from "../../runner/model/mod.ts";
import type { ChartData } from "../browser/mod.ts";
import { percentileViews } from "./percentile_views.ts";
import { rampData, timelineData } from "./timeline_data.ts";

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
