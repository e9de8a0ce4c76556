/**
 * Renders a result in the asked formats and writes each file atomically into one folder: a
 * reader never sees half a report, and a failing renderer leaves the others written.
 *
 * @module
 */
import { join } from "node:path";
import { writeFileAtomic } from "../runner/result/atomic_write.ts";
import type { RunResult } from "../runner/model/run_result.ts";
import { renderHlog } from "../runner/hdr/hlog.ts";
import { renderHtml } from "./html.ts";
import { renderJunit } from "./junit.ts";
import { renderMarkdown } from "./markdown.ts";
import { REPORT_FILES, type ReportFormat } from "./report_formats.ts";

/** Options of {@linkcode renderReport} and {@linkcode writeReports}. */
export interface ReportOptions {
  /**
   * Where readers of the Markdown summary find the HTML report (a CI run's artifacts page);
   * without it the summary names `report.html` in the run's artifact.
   */
  htmlUrl?: string;
}

/**
 * The text of one report.
 *
 * @example
 * ```ts
 * import { renderReport } from "./write_reports.ts";
 * // const xml = renderReport(result, "junit");
 * ```
 */
export function renderReport(
  result: RunResult,
  format: ReportFormat,
  options: ReportOptions = {},
): string {
  switch (format) {
    case "json":
      return JSON.stringify(result, null, 1) + "\n";
    case "html":
      return renderHtml(result);
    case "junit":
      return renderJunit(result);
    case "md":
      return renderMarkdown(result, options.htmlUrl ? { htmlUrl: options.htmlUrl } : {});
    case "hlog":
      return renderHlog(result);
  }
}

/** What {@linkcode writeReports} wrote and what it could not. */
export interface WrittenReports {
  /** Paths written, by format. */
  paths: Partial<Record<ReportFormat, string>>;
  /** One line per format that failed, naming the format and the reason. */
  errors: string[];
}

/**
 * Writes `formats` of `result` into `outDir` (created when missing).
 *
 * @example
 * ```ts
 * import { writeReports } from "./write_reports.ts";
 * // const { paths, errors } = await writeReports(result, "tailgate-out", ["html", "junit"]);
 * ```
 */
export async function writeReports(
  result: RunResult,
  outDir: string,
  formats: readonly ReportFormat[],
  options: ReportOptions = {},
): Promise<WrittenReports> {
  const written: WrittenReports = { paths: {}, errors: [] };
  for (const format of formats) {
    const path = join(outDir, REPORT_FILES[format]);
    try {
      await writeFileAtomic(path, renderReport(result, format, options));
      written.paths[format] = path;
    } catch (e) {
      written.errors.push(`${format} report not written to ${path}: ${(e as Error).message}`);
    }
  }
  return written;
}
