/**
 * The problems of an ad-hoc run's plan, told as problems of its command line: the plan made from
 * the flags (adhoc_plan.ts) is validated like any plan, and each issue located in it is traced back
 * through the line it sits on to the flag that wrote that line (`--duration 3: duration `3` has no
 * unit`), never to a plan file that does not exist.
 *
 * @module
 */
import { join } from "node:path";
import { formatIssue } from "../../plan/mod.ts";
import { parsePlanText } from "../../plan/mod.ts";
import { printable } from "../../plan/mod.ts";
import type { PlanIssue } from "../../plan/mod.ts";
import { type AdHocPlan, adHocPlanText, shellQuote } from "./adhoc_plan.ts";
import { adHocGrpcPlanText } from "./adhoc_grpc_plan.ts";
import { err, problems, type Result } from "../../model/mod.ts";

/** The ad-hoc flags as `parseArgs` gives them (`tailgate run URL …`). */
export interface AdHocValues {
  rate?: string;
  duration?: string;
  connections?: string;
  warmup?: string;
  method?: string;
  body?: string;
  slo?: string[];
  header?: string[];
  data?: string[];
  var?: string[];
  http2?: boolean;
  proto?: string[];
  message?: string;
}

/**
 * The plan an ad-hoc run's flags make, validated, or every problem told as its flag.
 */
export function adHocRun(
  url: string,
  v: AdHocValues,
  options: AdHocCheckOptions = {},
): Result<AdHocPlan> {
  const optional = (key: "rate" | "duration" | "connections" | "warmup" | "method" | "body") =>
    v[key] === undefined ? {} : { [key]: v[key] };
  const make = /^grpcs?:\/\//i.test(url.trimStart()) ? adHocGrpcPlanText : adHocPlanText;
  const made = make({
    url,
    ...optional("rate"),
    ...optional("duration"),
    ...optional("connections"),
    ...optional("warmup"),
    ...optional("method"),
    ...optional("body"),
    slos: v.slo ?? [],
    headers: v.header ?? [],
    data: v.data ?? [],
    vars: v.var ?? [],
    ...(v.http2 ? { http2: true } : {}),
    ...(v.proto ? { proto: v.proto } : {}),
    ...(v.message === undefined ? {} : { message: v.message }),
  });
  if (!made.ok) return made;
  const checked = checkAdHocPlan(made.value, options);
  return checked.errors.length ? err(problems(checked.errors)) : made;
}

/**
 * The name an ad-hoc run's plan is parsed under, in `dir`: the files it names (`--data`,
 * `--body @FILE`) are found relative to that folder and must lie inside it. The run reads it in the
 * current folder (plan_to_run.ts), so the paths on the command line are the user's own.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { adHocPlanFile } from "./adhoc_issues.ts";
 * assert.equal(adHocPlanFile("/home/me/load"), "/home/me/load/tailgate-run.yaml");
 * ```
 */
export function adHocPlanFile(dir: string = Deno.cwd()): string {
  return join(dir, "tailgate-run.yaml");
}

/** How {@linkcode checkAdHocPlan} reads the made plan. */
export interface AdHocCheckOptions {
  /** The folder the flags' file paths are relative to (default: the current folder). */
  dir?: string;
  /** Whether unset `${env.X}` are errors (default true; printing a plan needs no secret). */
  requireEnv?: boolean;
  /** Environment lookup; defaults to `Deno.env.get`. */
  env?: (name: string) => string | undefined;
}

/**
 * Validates an ad-hoc run's plan as the run will, its errors and warnings each told against the
 * flag it came from.
 */
export function checkAdHocPlan(
  made: AdHocPlan,
  options: AdHocCheckOptions = {},
): { errors: string[]; warnings: string[] } {
  const parsed = parsePlanText(made.text, {
    file: adHocPlanFile(options.dir),
    requireEnv: options.requireEnv ?? true,
    ...(options.env ? { env: options.env } : {}),
  });
  const told = (severity: PlanIssue["severity"]) => [
    ...new Set(
      parsed.issues.filter((i) => i.severity === severity).map((i) => formatAdHocIssue(i, made)),
    ),
  ];
  return { errors: told("error"), warnings: told("warning") };
}

/**
 * One issue of the made plan, told against the flag that wrote its line: `--slo 'p99 < 10': …`,
 * the spot underlined when it is part of the value, and the hint in the flags' terms. An issue of
 * a line no flag wrote is located in the made plan (which `--print-plan` shows).
 */
export function formatAdHocIssue(issue: PlanIssue, made: AdHocPlan): string {
  const source = made.lines[issue.line - 1];
  const message = inFlagTerms(issue.message);
  const hint = issue.hint === undefined ? undefined : inFlagTerms(issue.hint);
  if (source === undefined) {
    const located = { ...issue, file: "the plan made from the flags", message };
    return formatIssue(hint === undefined ? located : { ...located, hint }, made.text);
  }
  const value = printable(shellQuote(source.value));
  const label = source.flag === "URL" ? `the URL ${value}` : `${source.flag} ${value}`;
  const prefix = issue.severity === "warning" ? "warning: " : "";
  const out = [`${prefix}${label}: ${printable(message)}`];
  // Underline the part of the value the issue is about, when it is a part and can be found.
  const line = made.text.split("\n")[issue.line - 1] ?? "";
  const marked = printable(line.slice(issue.col - 1, issue.col - 1 + Math.max(1, issue.length)));
  const at = value.indexOf(marked);
  if (marked.trim() !== "" && marked !== value && at >= 0 && value.indexOf(marked, at + 1) < 0) {
    const start = label.length - value.length + at;
    out.push(`    ${label}`, `    ${" ".repeat(start)}${"^".repeat(marked.length)}`);
  }
  if (hint !== undefined) out.push(`  hint: ${printable(hint)}`);
  return out.join("\n");
}

/** The plan language's advice, reworded for the flags that stand for it. */
const REWORDINGS: Array<[RegExp, string | ((match: string, ...groups: string[]) => string)]> = [
  [/the plan's folder/g, "the current folder"],
  [/relative to the plan file/g, "relative to the current folder"],
  [/ before line \d+, where the plan goes on/g, ""],
  [
    /declare it under `data`, e\.g\. `([A-Za-z_]\w*): \{ file: [^`]*\}`/g,
    "add it with `--data $1=FILE`, e.g. `--data $1=$1.csv`",
  ],
  [/declare it under `vars` \(e\.g\. `([A-Za-z_]\w*): uuid`\)/g, "add it with `--var $1=uuid`"],
  [/`\{ int: \[(-?\d+), (-?\d+)\] \}`/g, "`int:$1:$2`"],
  [
    /`\{ choice: \[([^\]`]*)\] \}`/g,
    (_m, values) => `\`choice:${values.split(/,\s*/).join("|")}\``,
  ],
];

function inFlagTerms(text: string): string {
  return REWORDINGS.reduce(
    (t, [re, to]) => typeof to === "string" ? t.replace(re, to) : t.replace(re, to),
    text,
  );
}
