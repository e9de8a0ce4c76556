/**
 * `tailgate check plan.yaml|dir ...`: validates plans and renders every issue. Returns the text
 * to print and the exit code; cli.ts does the printing.
 *
 * @module
 */
import { join } from "node:path";
import { formatIssue } from "../plan/format_issue.ts";
import { loadPlan } from "../plan/load_plan.ts";
import type { PlanIssue } from "../plan/types.ts";
import { EXIT_CODES, type ExitCode } from "../model/exit_codes.ts";

/** What `tailgate check` found: per-plan blocks of text, a closing line, and the exit code. */
export interface CheckOutcome {
  exitCode: ExitCode;
  /** Rendered issues, one block per issue (stderr). */
  issues: string[];
  /** One line per plan and a summary (stdout). */
  lines: string[];
}

/**
 * Checks every plan named, expanding folders to their `.yaml`/`.yml` files.
 *
 * @example
 * ```ts
 * import { checkPlans } from "./check_command.ts";
 * const outcome = await checkPlans(["plans/"]);
 * console.log(outcome.lines.at(-1)); // "3 plans checked: 3 valid, 0 invalid, 0 warnings"
 * ```
 */
export async function checkPlans(paths: string[]): Promise<CheckOutcome> {
  if (paths.length === 0) {
    return {
      exitCode: EXIT_CODES.usage,
      issues: [
        "tailgate check: name at least one plan file or folder, e.g. `tailgate check plans/`",
      ],
      lines: [],
    };
  }
  const expanded = await Promise.all(paths.map(expand));
  const empty = paths.filter((_, i) => expanded[i].length === 0);
  if (empty.length > 0) {
    return {
      exitCode: EXIT_CODES.usage,
      issues: empty.map((p) =>
        `tailgate check: ${p} holds no plan (no .yaml or .yml file, also in its subfolders)`
      ),
      lines: [],
    };
  }
  const files = expanded.flat();
  const issues: string[] = [];
  const lines: string[] = [];
  let invalid = 0;
  let warnings = 0;
  for (const file of files) {
    const parsed = await loadPlan(file, { requireEnv: false });
    const errors = parsed.issues.filter((i: PlanIssue) => i.severity === "error").length;
    warnings += parsed.issues.length - errors;
    for (const issue of parsed.issues) issues.push(formatIssue(issue, parsed.text));
    if (errors > 0) invalid++;
    const status = errors > 0 ? `${errors} error${errors === 1 ? "" : "s"}` : "ok";
    const extra = parsed.issues.length - errors;
    lines.push(
      `${file}: ${status}${extra > 0 ? `, ${extra} warning${extra === 1 ? "" : "s"}` : ""}`,
    );
  }
  const n = files.length;
  lines.push(
    `${n} plan${n === 1 ? "" : "s"} checked: ${
      n - invalid
    } valid, ${invalid} invalid, ${warnings} warning${warnings === 1 ? "" : "s"}`,
  );
  return { exitCode: invalid > 0 ? EXIT_CODES.usage : EXIT_CODES.ok, issues, lines };
}

async function expand(path: string): Promise<string[]> {
  let info: Deno.FileInfo;
  try {
    info = await Deno.stat(path);
  } catch {
    return [path]; // loadPlan reports the missing file with its location.
  }
  if (!info.isDirectory) return [path];
  const out: string[] = [];
  for await (const entry of Deno.readDir(path)) {
    const child = join(path, entry.name);
    if (entry.isDirectory) out.push(...await expand(child));
    else if (/\.ya?ml$/i.test(entry.name)) out.push(child);
  }
  return out.sort();
}
