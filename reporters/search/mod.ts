/**
 * The capacity search's reports: the page (`search.html`) and the terminal and Markdown
 * summaries, each read from the `SearchResult`.
 *
 * @module
 */
export { renderSearchHtml } from "./search_html.ts";
export { searchChartData } from "./search_chart_data.ts";
export {
  renderSearchMarkdown,
  renderSearchTerminal,
  SEARCH_HEADER,
  searchFinding,
  searchGateLines,
  searchHeadline,
  searchRows,
} from "./search_report.ts";
