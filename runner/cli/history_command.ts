/**
 * `tailgate history [PLAN|DIR]...`: reads each plan's long history, finds the commits where its
 * latency, throughput or errors changed, and writes history.json, history.md and history.html.
 * Returns the text to print and the exit code; cli.ts does the printing.
 *
 * @module
 */
import { history } from "../api/mod.ts";
import { EXIT_CODES, withIoFailures } from "../model/mod.ts";
import { type HistorySettings, type PlanHistory, shortCommit } from "../model/mod.ts";
import { formatIssue } from "../plan/mod.ts";
import { loadPlan } from "../plan/mod.ts";
import { inertLine } from "../plan/mod.ts";
import type { ResolvedPlan } from "../plan/mod.ts";
import { DEFAULT_HISTORY_DIR, loadHistories } from "../history/mod.ts";
import { seriesName } from "../gates/mod.ts";
import { expandPlanPaths, parseCommandArgs, readHistoryOptions } from "./args/mod.ts";
import { type CommandOutcome, failed } from "./command.ts";
import { checkOutDir, outOverlap } from "../api/mod.ts";
import { writeHistoryFiles } from "./output/mod.ts";
import { changePText } from "../../reporters/mod.ts";

/** The help of `tailgate history`. */
export const HISTORY_HELP = `Usage: tailgate history <plan.yaml|dir>... [options]

Reads each plan's long history (the runs \`tailgate run --update-baseline\` stored, with their
commits), follows every measured stage's p50, p90, p99, p99.9, throughput and error rate over
the runs, and finds where they changed: E-divisive means over windows of runs, as Apache Otava
does, each change tested by shuffling the runs on either side (a one-run spike is not a change;
a change needs about 3 runs after it before it can be told from one). A change is a step near one commit (between it and the commit before), or a trend over a
span of runs. Writes history.json, history.md and history.html (charts over the commits, the
changes marked, the SLO bounds drawn).

Options:
  --baseline DIR      the folder of the histories (default ${DEFAULT_HISTORY_DIR})
  --out DIR           where the files go (default ./tailgate-out)
  --fail-recent N     exit 1 when a change for the worse lies within the newest N runs
                      (default 0: report only)
  --p-value P         the largest p-value of a change (default 0.001, at least 0.0001)
  --min-change PCT    the smallest change reported in every series, 5% or 5 (a bare number is
                      percent: 0.5 is 0.5%), below 1000% (default: each series' own, 3 robust
                      SDs of its runs, from 1% to 5%, printed with the reason)
  --window N          runs per window of the detector's first pass (default 50, 4 to 2,000)
  --last N            look at each history's newest N runs only (at least 6)
  --since COMMIT      look at the runs from COMMIT on only (the first run of the stored commit
                      that starts with it); a commit the history does not hold is an error

Exit 0 when no change fails, 1 when one does (--fail-recent), 2 on bad arguments, an invalid
plan or an unreadable history, 3 when Ctrl-C or SIGTERM stopped it (no file is written), 5 when
a file cannot be written.`;

/** The options `parseArgs` reads (every one is in the help; a test keeps it so). */
export const HISTORY_OPTIONS = {
  baseline: { type: "string" },
  out: { type: "string" },
  "fail-recent": { type: "string" },
  "p-value": { type: "string" },
  "min-change": { type: "string" },
  window: { type: "string" },
  last: { type: "string" },
  since: { type: "string" },
} as const;

/** How the terminal marks a change: worse, better, or an interval that includes no change. */
const MARKS = { worse: "▲ worse", better: "▽ better", unclear: "◇ unclear" } as const;

/** A plan's lines for the terminal: its runs, each change marked, each series' minimum change. */
function planLines(p: PlanHistory, settings: HistorySettings): string[] {
  const first = p.runs[0];
  const last = p.runs.at(-1)!;
  const at = (r: typeof first) => `${r.commit ? `${shortCommit(r.commit)}, ` : ""}${r.date}`;
  const lines = [
    `history of "${p.plan}" (${p.source}): ${p.runs.length} run${
      p.runs.length === 1 ? "" : "s"
    }, from ${at(first)} to ${at(last)}`,
  ];
  if (p.changes.length === 0) lines.push("  no change found");
  for (const c of p.changes) {
    const mark = MARKS[c.direction];
    const also = c.coincides.length ? `; ${c.coincides.join("; ")} there` : "";
    lines.push(`  ${mark}${c.recent ? " (recent)" : ""}: ${c.text}; p ${changePText(c)}${also}`);
  }
  lines.push(...minChangeLines(p, settings));
  for (const note of p.notes) lines.push(`  note: ${note}`);
  return lines;
}

/**
 * Each series' minimum change and why, the stages as a whole (their labels' are in history.md);
 * one line when `--min-change` set them all.
 */
function minChangeLines(p: PlanHistory, settings: HistorySettings): string[] {
  const set = p.series.filter((s) => s.minChange !== undefined);
  if (set.length === 0) return [];
  const percent = (x: number) => `${Number((x * 100).toPrecision(2))}%`;
  if (settings.minMagnitude !== undefined) {
    return [`  min change ${percent(settings.minMagnitude)} for every series (--min-change)`];
  }
  const lines = set.filter((s) => s.label === undefined).map((s) =>
    `  min change ${percent(s.minChange!.value)} for ${seriesName(s)}: ${s.minChange!.reason}`
  );
  if (set.some((s) => s.label !== undefined)) {
    lines.push("  min change of each label's series: history.md");
  }
  return lines;
}

/** Why folder `path` gives no plan; a folder of histories is told how to name the plans. */
async function noPlanProblem(path: string): Promise<string> {
  const histories = await loadHistories(path);
  if (histories.ok && histories.value.length > 0) {
    return `${path} holds histories, not plans: name the plans and the histories' folder, e.g. ` +
      `\`tailgate history plans/ --baseline ${path}\``;
  }
  return `${path} holds no plan (no .yaml or .yml file, also in its subfolders)`;
}

/**
 * Runs `tailgate history`.
 */
export async function historyCommand(
  args: string[],
  signal?: AbortSignal,
): Promise<CommandOutcome> {
  const read = parseCommandArgs(args, HISTORY_OPTIONS);
  if (!read.ok) return failed(read.problems);
  const { values, positionals } = read.value;
  if (positionals.length === 0) {
    return failed("name a plan or a folder of plans, e.g. `tailgate history plans/`");
  }
  const options = readHistoryOptions(values);
  if (!options.ok) return failed(options.problems);
  const { settings, notes: flagNotes } = options.value;
  const outDir = values.out ?? "tailgate-out";
  const baselineDir = values.baseline ?? DEFAULT_HISTORY_DIR;
  const outProblem = await checkOutDir(outDir) ?? await outOverlap(outDir, baselineDir);
  if (outProblem) return failed(outProblem);

  const expanded = await Promise.all(positionals.map(expandPlanPaths));
  const empty = positionals.filter((_, i) => expanded[i].length === 0);
  if (empty.length) return failed(await Promise.all(empty.map(noPlanProblem)));
  const plans: ResolvedPlan[] = [];
  const issues: string[] = [];
  for (const file of expanded.flat()) {
    const parsed = await loadPlan(file, { requireEnv: false });
    const bad = parsed.issues.filter((i) => i.severity === "error");
    if (parsed.plan && bad.length === 0) plans.push(parsed.plan);
    else issues.push(...bad.map((i) => formatIssue(i, parsed.text)));
  }
  if (issues.length) return { exitCode: EXIT_CODES.usage, errors: [], notes: issues };

  const { report, notes, problems, stopped } = await history(plans, {
    baselineDir,
    ...settings,
    ...(signal ? { signal } : {}),
  });
  // Stopped (Ctrl-C, SIGTERM) before the pages are written: none is, so none mixes two analyses.
  if (stopped || signal?.aborted) {
    return failed("stopped before the analysis ended; no file was written", EXIT_CODES.invalidRun);
  }
  if (problems.length) return failed(problems);
  if (report.plans.length === 0) {
    return failed([
      ...notes,
      `no history to read in ${baselineDir}: is --baseline the folder the runs were stored in?`,
    ]);
  }
  const { written, ioFailures } = await writeHistoryFiles(outDir, report);
  const lines = [
    ...report.plans.flatMap((p) => planLines(p, report.settings)),
    `${report.verdict.status === "pass" ? "✓ PASS" : "✗ FAIL"}: ${report.verdict.message}`,
    ...written.map((path) => `wrote ${path}`),
  ];
  const code = report.verdict.status === "fail" ? EXIT_CODES.gateFailed : EXIT_CODES.ok;
  return {
    exitCode: withIoFailures(code, ioFailures),
    errors: ioFailures,
    notes: [...flagNotes, ...notes],
    // Plan names, stage names, labels and paths are the plan's and the user's: each line made
    // inert whole, so a line break inside one is escaped, not a line of its own.
    output: lines.map(inertLine).join("\n"),
  };
}
