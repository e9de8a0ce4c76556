/**
 * Renders a result in the asked formats and writes each file atomically into one folder: a
 * reader never sees half a report, and a failing renderer leaves the others written.
 *
 * @module
 */
import { join } from "node:path";
import { writeFileAtomic } from "../runner/model/mod.ts";
import type { RunResult } from "../runner/model/mod.ts";
import type { FailOn } from "../runner/result/read/mod.ts";
import { renderHlog } from "../runner/hdr/mod.ts";
import { renderHtml } from "./html/mod.ts";
import { type JunitInconclusive, renderJunit } from "./junit/mod.ts";
import { renderMarkdown } from "./text/mod.ts";
import { REPORT_FILES, type ReportFormat } from "./report_formats.ts";

/** Options of {@linkcode renderReport} and {@linkcode writeReports}. */
export interface ReportOptions {
  /**
   * Where readers of the Markdown summary find the HTML report (a CI run's artifacts page);
   * without it the summary names `report.html` in the run's artifact.
   */
  htmlUrl?: string;
  /** The `--fail-on` the run is judged by: the JUnit report maps each status as it does. */
  failOn?: FailOn;
  /** How the JUnit report writes an undecided gate (`--junit-inconclusive`; default `auto`). */
  junitInconclusive?: JunitInconclusive;
}

/**
 * The text of one report.
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
      return renderJunit(result, options.failOn, options.junitInconclusive);
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
 */
export async function writeReports(
  result: RunResult,
  outDir: string,
  formats: readonly ReportFormat[],
  options: ReportOptions = {},
): Promise<WrittenReports> {
  const each = await writeEach(formats.map((format) => ({
    what: `${format} report`,
    path: join(outDir, REPORT_FILES[format]),
    render: () => renderReport(result, format, options),
  })));
  const paths: WrittenReports["paths"] = {};
  formats.forEach((format, i) => {
    if (each.written[i]) paths[format] = join(outDir, REPORT_FILES[format]);
  });
  return { paths, errors: each.errors };
}

/** One file for {@linkcode writeEach}: what it is (in messages), where, and its text. */
export interface FileToWrite {
  what: string;
  path: string;
  render: () => string;
}

/**
 * Renders and writes each file atomically, on its own: one that fails leaves the others written.
 * Returns, in order, whether each was written, and one error per file that was not, naming it,
 * where it should be and why (`html report not written to out/report.html: No space left …`).
 */
export async function writeEach(
  files: readonly FileToWrite[],
): Promise<{ written: boolean[]; errors: string[] }> {
  const done = { written: [] as boolean[], errors: [] as string[] };
  for (const file of files) {
    try {
      await writeFileAtomic(file.path, file.render());
      done.written.push(true);
    } catch (e) {
      done.written.push(false);
      done.errors.push(`${file.what} not written to ${file.path}: ${(e as Error).message}`);
    }
  }
  return done;
}
