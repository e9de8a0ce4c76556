/**
 * `tailgate check plan.yaml|dir ...`: validates plans and renders every issue. Returns the text
 * to print and the exit code; cli.ts does the printing.
 *
 * @module
 */
import { formatIssue } from "../plan/mod.ts";
import { loadPlan } from "../plan/mod.ts";
import { dataExhaustion, demandLine } from "../schedule/mod.ts";
import { inertLines } from "../plan/mod.ts";
import type { PlanIssue } from "../plan/mod.ts";
import { captureSourceText } from "../engine/mod.ts";
import { EXIT_CODES } from "../model/mod.ts";
import { skippedDefaultTails, undecidableTails } from "../gates/mod.ts";
import { basename } from "node:path";
import { type CommandOutcome, failed } from "./command.ts";
import { expandPlanPaths } from "./args/mod.ts";

/** The help of `tailgate check`. */
export const CHECK_HELP = `Usage: tailgate check <plan.yaml|dir>...

Validates each plan (a folder: every .yaml/.yml below it) and prints every problem as
file:line:col with the offending line, a caret and a hint. Unset \${env.X} variables are warnings
here and errors before a run; so are percentiles the planned request count cannot support.
Tail percentiles a regression check (against the history, or \`tailgate ab\`) cannot judge on a
stage are warnings too when the plan names them under \`regression\`, with the stage length that
would decide them; a default one is a note where an SLO judges that percentile, and otherwise
one line for all the plans checked.
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
  const quiet: Array<{ file: string; metrics: string[] }> = [];
  for (const file of files) {
    const parsed = await loadPlan(file, { requireEnv: false });
    const demand = parsed.plan ? dataExhaustion(parsed.plan) : undefined;
    parsed.issues.push(...demand?.issues ?? []);
    // Tail percentiles a regression check (history or A/B) could not judge, said up front: at
    // the stage when the plan names them or an SLO judges them, else once for all plans.
    if (parsed.plan) {
      parsed.issues.push(...undecidableTails(parsed.plan, parsed.text, { judgedOnly: true }));
      const skipped = skippedDefaultTails(parsed.plan);
      if (skipped.length) quiet.push({ file: basename(file), metrics: skipped });
    }
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
  if (quiet.length) lines.push(skippedLine(quiet));
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

/**
 * The default tail metrics the regression check skips on plans too short for them, which no SLO
 * of theirs judges: one line for every plan checked, not a note at each stage of each.
 */
function skippedLine(quiet: ReadonlyArray<{ file: string; metrics: string[] }>): string {
  const metrics = [...new Set(quiet.flatMap((q) => q.metrics))];
  const list = metrics.length === 1
    ? metrics[0]
    : `${metrics.slice(0, -1).join(", ")} and ${metrics.at(-1)}`;
  const plans = quiet.length === 1 ? "1 plan" : `${quiet.length} plans`;
  const files = quiet.slice(0, 5).map((q) => q.file).join(", ") +
    (quiet.length > 5 ? ` and ${quiet.length - 5} more` : "");
  const one = metrics.length === 1;
  return `note: ${plans} ${quiet.length === 1 ? "runs" : "run"} too short for the default ` +
    `regression check's ${list} (${files}): ${one ? "it is" : "they are"} skipped there, and ` +
    `no SLO of ${quiet.length === 1 ? "the plan" : "those plans"} judges ${one ? "it" : "them"}; ` +
    'run longer, or name `regression:` metrics (docs/plan.md, "regression")';
}
