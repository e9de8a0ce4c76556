/**
 * `tailgate report result.json --format html,junit,md,hlog`: re-renders a stored result. The
 * reporters read only the result document, so any stored run renders as it did when it ran.
 *
 * @module
 */
import { dirname } from "node:path";
import { readRunResultFile } from "../result/mod.ts";
import { computeRunVerdict } from "../gates/mod.ts";
import { parseReportFormats, type ReportFormat } from "../../reporters/mod.ts";
import { writeReports } from "../../reporters/mod.ts";
import { renderTerminal } from "../../reporters/mod.ts";
import { EXIT_CODES, withIoFailures } from "../model/mod.ts";
import { defaultColor } from "../api/mod.ts";
import { colorChoice, failOnArg, junitInconclusiveArg, parseCommandArgs } from "./args/mod.ts";
import { outOverlap } from "../api/mod.ts";
import type { CommandOutcome } from "./command.ts";
import { prefixed, problemText } from "../model/mod.ts";

/** The help of `tailgate report`. */
export const REPORT_HELP = `Usage: tailgate report <result.json> [--format FORMATS] [--out DIR]
                       [--report-url URL] [--fail-on WHAT] [--junit-inconclusive HOW]
                       [--color | --no-color]

Re-renders a stored result: the reporters read only the result document.
  --format FORMATS  comma-separated: html, junit, md, hlog, json, or all (default html,junit,md)
  --out DIR         where the files go (default: the result's folder)
  --report-url URL  where the HTML report will be; the Markdown summary links it
  --fail-on WHAT    what the job that reads junit.xml fails on (as for \`tailgate run\`; default
                    inconclusive-sampling): only how junit.xml levels an undecided gate under
                    auto; the exit code is the reports'
  --junit-inconclusive HOW  how junit.xml writes an undecided gate: auto (default: as
                    --fail-on levels it, an error when it turns the run red, else skipped),
                    skipped, or failure (each one a failed test)
  --color, --no-color  colour the summary or not (default: on a terminal, unless NO_COLOR)
Prints the summary table; exit 0 when every report was written, 2 for a result it cannot read,
5 when a report could not be written (the others are). The verdicts are the ones stored in the
result (\`tailgate run\` and \`tailgate merge\` judge).`;

/** The options `parseArgs` reads (every one is in the help; a test keeps it so). */
export const REPORT_OPTIONS = {
  format: { type: "string", default: "html,junit,md" },
  out: { type: "string" },
  "report-url": { type: "string" },
  "fail-on": { type: "string" },
  "junit-inconclusive": { type: "string" },
  color: { type: "boolean" },
  "no-color": { type: "boolean" },
} as const;

/**
 * Runs `tailgate report`.
 */
export async function reportCommand(args: string[]): Promise<CommandOutcome> {
  const readArgs = parseCommandArgs(args, REPORT_OPTIONS);
  if (!readArgs.ok) return usage(readArgs.problems[0].message);
  const parsed = readArgs.value;
  const [file, ...extra] = parsed.positionals;
  if (file === undefined) {
    return usage("name the result, e.g. `tailgate report tailgate-out/result.json`");
  }
  if (extra.length) return usage(`one result at a time; unexpected ${extra.join(", ")}`);
  const formats = parseReportFormats(parsed.values.format!);
  if (!formats.ok) return usage(problemText(prefixed("--format: ", formats.problems)[0]));
  const junit = junitInconclusiveArg(parsed.values);
  if (!junit.ok) return usage(problemText(junit.problems[0]));
  const failOn = failOnArg(parsed.values);
  if (!failOn.ok) return usage(problemText(failOn.problems[0]));
  const read = await readRunResultFile(file);
  if (!read.ok) return usage(read.problems.map((p) => p.message).join("\n"));
  const result = read.value;
  // A result written before the run verdict was stored (format 1) is judged once, here.
  result.verdict ??= computeRunVerdict(result);
  const outDir = parsed.values.out ?? dirname(file);
  const overlap = await outOverlap(outDir);
  if (overlap) return usage(overlap);
  const wanted: ReportFormat[] = formats.value;
  const reportUrl = parsed.values["report-url"];
  const written = await writeReports(result, outDir, wanted, {
    ...(reportUrl ? { htmlUrl: reportUrl } : {}),
    failOn: failOn.value,
    junitInconclusive: junit.value,
  });
  const color = colorChoice(parsed.values) ?? defaultColor();
  return {
    exitCode: withIoFailures(EXIT_CODES.ok, written.errors),
    errors: written.errors,
    notes: [],
    output: [
      renderTerminal(result, { color }),
      "",
      ...Object.values(written.paths).map((p) => `wrote ${p}`),
    ].join("\n"),
  };
}

function usage(error: string): CommandOutcome {
  return { exitCode: EXIT_CODES.usage, errors: [error], notes: [] };
}
