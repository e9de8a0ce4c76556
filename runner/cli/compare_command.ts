/**
 * `tailgate compare a.json b.json`: per stage and label, percentiles side by side with deltas,
 * the regression verdicts of b against a (a as a one-run baseline: the relative floors decide) and
 * the Kolmogorov–Smirnov distance. Text, Markdown or JSON.
 *
 * @module
 */
import {
  decodeRuns,
  HISTORY_FILE_SCHEMA,
  HISTORY_FILE_VERSION,
  storedRunFrom,
} from "../history/mod.ts";
import { evaluateRegression, type RegressionMetric } from "../gates/mod.ts";
import { formatChange, formatMetric, gatesVerdict } from "../result/mod.ts";
import { exitCodeOf } from "../result/mod.ts";
import { errorRate } from "../model/mod.ts";
import { readRunResultFile } from "../result/mod.ts";
import type { LabelResult, RunResult, StageResult, Verdict } from "../model/mod.ts";
import { parseCommandArgs } from "./args/mod.ts";
import { EXIT_CODES } from "../model/mod.ts";
import type { CommandOutcome } from "./command.ts";
import { type MarkdownAlign, markdownTable, markdownText } from "../../reporters/mod.ts";
import { printable } from "../plan/mod.ts";

/** The help of `tailgate compare`. */
export const COMPARE_HELP =
  `Usage: tailgate compare <baseline.json> <current.json> [--format text|md|json]

Compares two results of the same plan, stage by stage and label by label: corrected percentiles
side by side with their change, the regression verdicts of the second against the first (one run
of history: the plan's relative floors decide) and the KS distance of their distributions.
Exit 0 when nothing regressed, 1 when something did, 2 for unreadable input.`;

const PERCENTILES = ["50", "90", "99", "99.9"];

/** The options `parseArgs` reads (every one is in the help; a test keeps it so). */
export const COMPARE_OPTIONS = { format: { type: "string", default: "text" } } as const;

/**
 * Runs `tailgate compare` with its arguments.
 */
export async function compareCommand(args: string[]): Promise<CommandOutcome> {
  const read = parseCommandArgs(args, COMPARE_OPTIONS);
  if (!read.ok) {
    return { exitCode: EXIT_CODES.usage, errors: [read.problems[0].message], notes: [] };
  }
  const parsed = read.value;
  const format = parsed.values.format!;
  if (!["text", "md", "json"].includes(format)) {
    return {
      exitCode: EXIT_CODES.usage,
      errors: [`--format ${format}: use text, md or json`],
      notes: [],
    };
  }
  if (parsed.positionals.length !== 2) {
    return {
      exitCode: EXIT_CODES.usage,
      errors: ["name two results: tailgate compare <baseline.json> <current.json>"],
      notes: [],
    };
  }
  const results: RunResult[] = [];
  for (const path of parsed.positionals) {
    const r = await readRunResultFile(path);
    // A damaged histogram or impossible counts are refused on read, naming stage and label.
    if (!r.ok) {
      return { exitCode: EXIT_CODES.usage, errors: r.problems.map((p) => p.message), notes: [] };
    }
    results.push(r.value);
  }
  const [a, b] = results;
  // Both results were checked on read: their histograms decode.
  const decoded = decodeRuns({
    schema: HISTORY_FILE_SCHEMA,
    version: HISTORY_FILE_VERSION,
    plan: a.plan.name,
    runs: [storedRunFrom(a)],
    history: [],
  });
  if (!decoded.ok) throw new RangeError(decoded.problems[0].message);
  const verdicts = evaluateRegression(
    b,
    decoded.value,
    {
      // Two results the user put side by side: their floors decide, no history spread is asked.
      floorsDecide: true,
      ...(b.plan.regression
        ? { floors: b.plan.regression as Partial<Record<RegressionMetric, number>> }
        : {}),
    },
  );
  const rows = compareRows(a, b);
  const output = format === "json"
    ? JSON.stringify(
      { baseline: a.run.startedAt, current: b.run.startedAt, rows, verdicts },
      null,
      1,
    )
    : render(rows, verdicts, format === "md", a.plan.name !== b.plan.name);
  return {
    // Two stored runs are no history: only a regression beyond doubt exits non-zero.
    exitCode: exitCodeOf(gatesVerdict(verdicts), { failOn: "fail" }),
    errors: [],
    notes: [],
    output,
  };
}

/** One line of the comparison: a metric of a stage (and label) in both runs. */
export interface CompareRow {
  stage: string;
  label?: string;
  metric: string;
  baseline: number;
  current: number;
  unit: "us" | "fraction" | "per_sec";
  /** Relative change (current / baseline − 1), or undefined when the baseline is 0. */
  change?: number;
}

/**
 * The side-by-side rows of two results, for stages both hold with the same shape.
 */
export function compareRows(a: RunResult, b: RunResult): CompareRow[] {
  const rows: CompareRow[] = [];
  for (const sb of b.stages) {
    const sa = a.stages.find((s) =>
      s.index === sb.index && s.fromPerSec === sb.fromPerSec && s.toPerSec === sb.toPerSec
    );
    if (sa === undefined) continue;
    const groups: Array<
      [
        string | undefined,
        Pick<LabelResult, "counts" | "response">,
        Pick<LabelResult, "counts" | "response">,
      ]
    > = [
      [undefined, sa, sb],
    ];
    if (sb.labels.length > 1) {
      for (const lb of sb.labels) {
        const la = sa.labels.find((l) => l.label === lb.label);
        if (la) groups.push([lb.label, la, lb]);
      }
    }
    for (const [label, ga, gb] of groups) {
      const add = (metric: string, x: number, y: number, unit: CompareRow["unit"]) =>
        rows.push({
          stage: sb.name,
          ...(label ? { label } : {}),
          metric,
          baseline: x,
          current: y,
          unit,
          ...(x > 0 ? { change: y / x - 1 } : {}),
        });
      for (const p of PERCENTILES) {
        add(`p${p}`, ga.response.percentilesUs[p], gb.response.percentilesUs[p], "us");
      }
      add("max", ga.response.maxUs, gb.response.maxUs, "us");
      add("error_rate", errorRate(ga.counts), errorRate(gb.counts), "fraction");
      add(
        "throughput",
        ga.counts.completed / seconds(sa),
        gb.counts.completed / seconds(sb),
        "per_sec",
      );
    }
  }
  return rows;
}

function render(rows: CompareRow[], verdicts: Verdict[], md: boolean, otherPlan: boolean): string {
  const header = ["stage", "metric", "baseline", "current", "change"];
  // The stage and label are the plan's text: one line each, inert, in the text table too.
  const body = rows.map((r) => [
    (md ? (t: string) => t : printable)(r.label ? `${r.stage} [${r.label}]` : r.stage),
    r.metric,
    formatMetric(r.baseline, r.unit),
    formatMetric(r.current, r.unit),
    // In words: a lower latency is better, a lower throughput worse.
    r.change === undefined ? "-" : formatChange(r.metric === "throughput" ? -r.change : r.change),
  ]);
  const lines = otherPlan ? ["WARNING: the two results are of different plans", ""] : [];
  if (md) {
    const align = header.map((_, i): MarkdownAlign => i < 2 ? "left" : "right");
    // The stage and label are the plan's text; the other cells are figures this command wrote.
    const rows = body.map(([stage, ...figures]) => [markdownText(stage), ...figures]);
    lines.push(...markdownTable(header, align, rows));
  } else {
    const widths = header.map((_, i) =>
      Math.max(header[i].length, ...body.map((row) => row[i].length))
    );
    for (const row of [header, ...body]) {
      lines.push(
        row.map((c, i) => (i < 2 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  "),
      );
    }
  }
  lines.push("");
  for (const v of verdicts) {
    const [name, message] = md
      ? [markdownText(v.name), markdownText(v.message)]
      : [printable(v.name), printable(v.message)];
    lines.push(`${md ? "- " : ""}${v.status.toUpperCase()} ${name}: ${message}`);
  }
  return lines.join("\n");
}

function seconds(stage: StageResult): number {
  return stage.durationMs / 1000;
}
