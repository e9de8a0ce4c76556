/**
 * The run's HTML report (`report.html`): one self-contained page, its sections (verdict, gates,
 * stages, tool health, traffic, plan) and the chart data its browser script draws.
 *
 * @module
 */
export { renderHtml } from "./html.ts";
export { buildChartData } from "./html_data.ts";
export { percentileViews } from "./percentile_views.ts";
export { rampData, stallSeries, timelineData, windowMarks } from "./timeline_data.ts";
