/**
 * The history's reports: history.md and history.html, each read from the `HistoryReport`
 * (`tailgate history`), with the chart data the page draws and the change table both share.
 *
 * @module
 */
export { historyMarkdown } from "./history_markdown.ts";
export { historyHtml } from "./history_html.ts";
export { historyChartData } from "./history_chart_data.ts";
export {
  CHANGE_HEADER,
  changeCells,
  changePText,
  type ChangeRow,
  changeRow,
  type PhrasePart,
  pValueText,
} from "./change_row.ts";
export {
  historyValueText,
  runDateText,
  runName,
  runsSummary,
  seriesPlace,
  signedPercent,
  signedPoints,
} from "./history_figures.ts";
export {
  MIN_CHANGE_HEADER,
  minChangeRows,
  settingsPairs,
  settingsText,
} from "./history_settings.ts";
