/**
 * The A/B comparison's reports: the page (`ab.html`), the terminal and Markdown summaries, and
 * JUnit XML, each read from the `AbResult`.
 *
 * @module
 */
export { renderAbHtml } from "./ab_html.ts";
export { abChartData } from "./ab_chart_data.ts";
export { renderAbJunit } from "./ab_junit.ts";
export { AB_HEADER, abHeadline, abRows, renderAbMarkdown, renderAbTerminal } from "./ab_report.ts";
