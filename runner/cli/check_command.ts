/**
 * `tailgate check plan.yaml|dir ...`: validates plans and renders every issue. Returns the text
 * to print and the exit code; cli.ts does the printing.
 *
 * @module
 */
import { formatIssue } from "../plan/format_issue.ts";
import { loadPlan } from "../plan/load_plan.ts";
import { dataExhaustion, demandLine } from "../schedule/data_exhaustion.ts";
import { inertLines } from "../plan/printable.ts";
import type { PlanIssue } from "../plan/types.ts";
import { captureSourceText } from "../session/mod.ts";
import { EXIT_CODES } from "../model/exit_codes.ts";
import { undecidableTails } from "../gates/regression/mod.ts";
import { type CommandOutcome, failed } from "./command.ts";
import { expandPlanPaths } from "./args/mod.ts";

/** The help of `tailgate check`. */
export const CHECK_HELP = `Usage: tailgate check <plan.yaml|dir>...

Validates each plan (a folder: every .yaml/.yml below it) and prints every problem as
file:line:col with the offending line, a caret and a hint. Unset \${env.X} variables are warnings
here and errors before a run; so are percentiles the planned request count cannot support.
Tail percentiles a regression check (against the history, or \`tailgate ab\`) cannot judge on a
stage are warnings too, with the stage length that would decide them.
Exit 0 when every plan is valid, 2 otherwise.`;

/**
 * Checks every plan named, expanding folders to their `.yaml`/`.yml` files.
 */
export async function checkPlans(paths: string[]): Promise<CommandOutcome> {
  if (paths.length === 0) {
    return failed("name at least one plan file or folder, e.g. `tailgate check plans/`");
  }
  const expanded = await Promise.all(paths.map(expandPlanPaths));
  const empty = paths.filter((_, i) => expanded[i].length === 0);
  if (empty.length > 0) {
    return failed(
      empty.map((p) => `${p} holds no plan (no .yaml or .yml file, also in its subfolders)`),
    );
  }
  const files = expanded.flat();
  const issues: string[] = [];
  const lines: string[] = [];
  let invalid = 0;
  let warnings = 0;
  for (const file of files) {
    const parsed = await loadPlan(file, { requireEnv: false });
    const demand = parsed.plan ? dataExhaustion(parsed.plan) : undefined;
    parsed.issues.push(...demand?.issues ?? []);
    // Tail percentiles a regression check (history or A/B) could not judge, said up front.
    if (parsed.plan) parsed.issues.push(...undecidableTails(parsed.plan, parsed.text));
    const errors = parsed.issues.filter((i: PlanIssue) => i.severity === "error").length;
    const notes = parsed.issues.filter((i: PlanIssue) => i.severity === "note").length;
    warnings += parsed.issues.length - errors - notes;
    for (const issue of parsed.issues) issues.push(formatIssue(issue, parsed.text) + "\n");
    if (errors > 0) invalid++;
    const status = errors > 0 ? `${errors} error${errors === 1 ? "" : "s"}` : "ok";
    const extra = parsed.issues.length - errors - notes;
    lines.push(
      `${file}: ${status}${extra > 0 ? `, ${extra} warning${extra === 1 ? "" : "s"}` : ""}${
        notes > 0 ? `, ${notes} note${notes === 1 ? "" : "s"}` : ""
      }`,
    );
    for (const d of demand?.demand ?? []) lines.push(`  ${demandLine(d)}`);
    for (
      const [section, steps] of [["setup", parsed.plan?.setup], [
        "teardown",
        parsed.plan?.teardown,
      ]] as const
    ) {
      for (const step of steps ?? []) {
        const captures = step.captures.map((c) => `${c.name} (${captureSourceText(c.from)})`);
        lines.push(
          `  ${section}: ${step.label}: ${step.method} ${step.url}` +
            (captures.length ? `, captures ${captures.join(", ")}` : ""),
        );
      }
    }
  }
  const n = files.length;
  lines.push(
    `${n} plan${n === 1 ? "" : "s"} checked: ${
      n - invalid
    } valid, ${invalid} invalid, ${warnings} warning${warnings === 1 ? "" : "s"}`,
  );
  return {
    exitCode: invalid > 0 ? EXIT_CODES.usage : EXIT_CODES.ok,
    errors: [],
    notes: issues,
    output: inertLines(lines.join("\n")),
  };
}
