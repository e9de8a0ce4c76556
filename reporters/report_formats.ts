/**
 * The report formats `tailgate run --report` and `tailgate report --format` accept, and the file
 * each one is written to.
 *
 * @module
 */
import { err, ok, problem, type Result } from "../runner/model/mod.ts";

/**
 * Every format, in the order reports are written.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { REPORT_FORMATS } from "./report_formats.ts";
 * assert.ok(REPORT_FORMATS.includes("html"));
 * ```
 */
export const REPORT_FORMATS = ["json", "html", "junit", "md", "hlog"] as const;

/** One of {@linkcode REPORT_FORMATS}. */
export type ReportFormat = typeof REPORT_FORMATS[number];

/**
 * What `tailgate run` writes when `--report` is not given.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { DEFAULT_RUN_REPORTS } from "./report_formats.ts";
 * assert.deepEqual(DEFAULT_RUN_REPORTS, ["json", "html", "junit", "md"]);
 * ```
 */
export const DEFAULT_RUN_REPORTS: readonly ReportFormat[] = ["json", "html", "junit", "md"];

/**
 * The file name of each format inside the output folder.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { REPORT_FILES } from "./report_formats.ts";
 * assert.equal(REPORT_FILES.junit, "junit.xml");
 * ```
 */
export const REPORT_FILES: Readonly<Record<ReportFormat, string>> = {
  json: "result.json",
  html: "report.html",
  junit: "junit.xml",
  md: "summary.md",
  hlog: "latency.hlog",
};

const ALIASES: Record<string, ReportFormat> = {
  markdown: "md",
  xml: "junit",
  htm: "html",
  hdr: "hlog",
};

/**
 * Parses a comma-separated list of formats (`html,junit`, or `all`), in the order given, without
 * repeats; unknown names are errors that list the known ones.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseReportFormats } from "./report_formats.ts";
 * assert.deepEqual(parseReportFormats("html, md"), { ok: true, value: ["html", "md"] });
 * const bad = parseReportFormats("pdf");
 * assert.ok(!bad.ok);
 * assert.match(bad.problems[0].message, /^unknown report format `pdf`/);
 * ```
 */
export function parseReportFormats(
  text: string,
): Result<ReportFormat[]> {
  const formats: ReportFormat[] = [];
  for (const raw of text.split(",").map((s) => s.trim().toLowerCase()).filter(Boolean)) {
    if (raw === "all") {
      for (const f of REPORT_FORMATS) if (!formats.includes(f)) formats.push(f);
      continue;
    }
    const format = (REPORT_FORMATS as readonly string[]).includes(raw)
      ? raw as ReportFormat
      : ALIASES[raw];
    if (format === undefined) {
      return err(problem(
        `unknown report format \`${raw}\``,
        `choose from ${REPORT_FORMATS.join(", ")} or all`,
      ));
    }
    if (!formats.includes(format)) formats.push(format);
  }
  if (formats.length === 0) {
    return err(problem(`name at least one report format: ${REPORT_FORMATS.join(", ")}`));
  }
  return ok(formats);
}
