/**
 * The report pages' browser scripts, as the pages embed them: each page's module (`run_charts.ts`,
 * `search_charts.ts`, `ab_charts.ts`, `history_charts.ts`) with the modules it imports (the
 * shared `chart_kit.ts`), made one plain-JavaScript script by page_script.ts. The sources are imported as text, so they
 * travel with the code wherever it is installed (a checkout, the npm package, JSR). And what each
 * page's script reads, the contract the page's builder writes (`run_page_data.ts`,
 * `search_page_data.ts`, `ab_page_data.ts`, `history_page_data.ts`: types only, erased from the
 * scripts), so the builders import the browser side and never the other way.
 *
 * @module
 */
import { safeInlineScript } from "../page/mod.ts";
import abCharts from "./ab_charts.ts" with { type: "text" };
import chartKit from "./chart_kit.ts" with { type: "text" };
import historyCharts from "./history_charts.ts" with { type: "text" };
import runCharts from "./run_charts.ts" with { type: "text" };
import runStyle from "./run_style.ts" with { type: "text" };
import runTimeline from "./run_timeline.ts" with { type: "text" };
import searchCharts from "./search_charts.ts" with { type: "text" };
import { type BrowserModule, pageScript } from "./page_script.ts";

const MODULES: BrowserModule[] = [
  { name: "ab_charts.ts", source: abCharts },
  { name: "chart_kit.ts", source: chartKit },
  { name: "history_charts.ts", source: historyCharts },
  { name: "run_charts.ts", source: runCharts },
  { name: "run_style.ts", source: runStyle },
  { name: "run_timeline.ts", source: runTimeline },
  { name: "search_charts.ts", source: searchCharts },
];

/** Which page's script. */
export type PageName = "run" | "search" | "ab" | "history";

const ENTRIES: Record<PageName, { module: string; call: string }> = {
  run: { module: "run_charts.ts", call: "drawRunCharts" },
  search: { module: "search_charts.ts", call: "drawSearchCharts" },
  ab: { module: "ab_charts.ts", call: "drawAbCharts" },
  history: { module: "history_charts.ts", call: "drawHistoryCharts" },
};
const made = new Map<PageName, string>();

/**
 * The page's drawing script (made once per process): plain JavaScript that draws the page's
 * charts from its embedded data with the inlined chart.js.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { browserScript } from "./mod.ts";
 * const html = `<script>${browserScript("run")}</script>`;
 * assert.ok(!html.slice(8, -9).includes("</script"));
 * ```
 */
export function browserScript(page: PageName): string {
  let script = made.get(page);
  if (script === undefined) {
    // Inlined in a `<script>` element, as chart.js is: no `</script` or `<!--` may end it early.
    script = safeInlineScript(pageScript(MODULES, ENTRIES[page].module, ENTRIES[page].call));
    made.set(page, script);
  }
  return script;
}

export { type BrowserModule, pageScript } from "./page_script.ts";
export type {
  ChartData,
  PercentileChartData,
  PercentileRole,
  PercentileSeries,
  PercentileView,
  RampChartData,
  SloMarker,
  StageSpan,
  TimelineChartData,
  TimelineRole,
  TimelineSeries,
  WindowMark,
} from "./run_page_data.ts";
export type { SearchBound, SearchChartData, SearchPoint } from "./search_page_data.ts";
export type {
  HistoryBound,
  HistoryChart,
  HistoryChartData,
  HistoryLine,
  HistoryMark,
  HistoryPlanCharts,
  HistoryRunPoint,
} from "./history_page_data.ts";
export type { AbChartData } from "./ab_page_data.ts";
