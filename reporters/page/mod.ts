/**
 * What every HTML page shares (the run report, the capacity search, the A/B comparison): the
 * document shell with its style sheet and Content-Security-Policy, cards and tables, escaping,
 * the inlined chart.js, and the percentile axis the latency curves are drawn on.
 *
 * @module
 */
export { htmlCard, htmlPage, type PageParts } from "./html_page.ts";
export { type Cell, htmlTable, keyValueTable } from "./html_table.ts";
export { escapeHtml, jsonForScript, safeInlineScript } from "./html_escape.ts";
export { CHART_JS_VERSION, chartJsBundle } from "./_chart_js.ts";
export {
  type PercentileAxis,
  percentileAxis,
  percentileCurve,
  type PercentileTick,
  percentileX,
} from "./percentile_curve.ts";
