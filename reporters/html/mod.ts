/**
 * The run's HTML report (`report.html`): one self-contained page, its sections (verdict, gates,
 * stages, tool health, traffic, plan) and the chart data its browser script draws.
 *
 * @module
 */
export { renderHtml } from "./html.ts";
export { buildChartData, type ChartData } from "./html_data.ts";
export {
  type PercentileChartData,
  type PercentileRole,
  type PercentileSeries,
  type PercentileView,
  percentileViews,
  type SloMarker,
} from "./percentile_views.ts";
export {
  type RampChartData,
  rampData,
  type StageSpan,
  stallSeries,
  type TimelineChartData,
  timelineData,
  type TimelineRole,
  type TimelineSeries,
  type WindowMark,
  windowMarks,
} from "./timeline_data.ts";
