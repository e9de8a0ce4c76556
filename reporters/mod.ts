/**
 * The reporters: each reads only the judged result document (its stored run verdict, through
 * runner/result/read; the result `judge()` returns stores it) and renders one format.
 * `writeReports` writes the asked formats atomically into a folder (`tailgate run --report`,
 * `tailgate report`).
 *
 * @module
 */
export { type JunitInconclusive, renderJunit } from "./junit/mod.ts";
export { renderHtml } from "./html/mod.ts";
export { historyHtml, historyMarkdown } from "./history/mod.ts";
export { MARKDOWN_MAX_BYTES, type MarkdownOptions, renderMarkdown } from "./text/mod.ts";
export { HLOG_LEGEND, renderHlog } from "../runner/hdr/mod.ts";
export { type HlogEntry, type HlogLog, HlogParseError, parseHlog } from "../runner/hdr/mod.ts";
export {
  type ColorContext,
  renderTerminal,
  shouldUseColor,
  type TerminalOptions,
} from "./text/mod.ts";
export {
  DEFAULT_RUN_REPORTS,
  parseReportFormats,
  REPORT_FILES,
  REPORT_FORMATS,
  type ReportFormat,
} from "./report_formats.ts";
export {
  renderReport,
  type ReportOptions,
  writeReports,
  type WrittenReports,
} from "./write_reports.ts";
export type { MarkdownAlign } from "./text/mod.ts";
export { markdownTable, markdownText, markdownUrl } from "./text/mod.ts";
export { changePText } from "./history/mod.ts";
export type { FileToWrite } from "./write_reports.ts";
export { writeEach } from "./write_reports.ts";
export { type DocumentRenderers, writeDocumentFiles } from "./document_files.ts";
export { renderSearchHtml, renderSearchMarkdown, renderSearchTerminal } from "./search/mod.ts";
export { renderAbHtml, renderAbJunit, renderAbMarkdown, renderAbTerminal } from "./ab/mod.ts";
export {
  DEFAULT_JUNIT_INCONCLUSIVE,
  inconclusiveElement,
  readJunitInconclusive,
} from "./junit/mod.ts";
export { EXPORT_OTLP_SCALE, type ExportOutcome, exportRun } from "./export/mod.ts";
export type { MetricBatch } from "./export/mod.ts";
