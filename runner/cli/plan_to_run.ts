/**
 * Loading a plan before `tailgate run` or `search`: its errors become the command's outcome (exit
 * 2, every located issue), and its warnings are shown at once, before anything runs, when they can
 * still change the user's mind.
 *
 * @module
 */
import { EXIT_CODES } from "../model/exit_codes.ts";
import { formatIssue } from "../plan/format_issue.ts";
import { join } from "node:path";
import { loadPlan, parsePlanText } from "../plan/load_plan.ts";
import type { ResolvedPlan } from "../plan/types.ts";
import type { CommandOutcome } from "./command.ts";

/**
 * The plan at `path` (or, for an ad-hoc run, made from `text`), ready to run, or the outcome that
 * refuses it.
 *
 * @example
 * ```ts
 * import { planToRun } from "./plan_to_run.ts";
 * const loaded = await planToRun("plans/demo.yaml", console.error);
 * console.log("plan" in loaded ? loaded.plan.name : loaded.outcome.exitCode); // demo-stall
 * ```
 */
export async function planToRun(
  path: string,
  progress: (line: string) => void,
  text?: string,
  requireEnv = true,
): Promise<{ plan: ResolvedPlan } | { outcome: CommandOutcome }> {
  // An ad-hoc run's plan is made from its flags; body files are relative to the current folder.
  const parsed = text === undefined
    ? await loadPlan(path, { requireEnv })
    : parsePlanText(text, { file: join(Deno.cwd(), "tailgate-run.yaml"), requireEnv });
  const errors = parsed.issues.filter((i) => i.severity === "error");
  if (!parsed.plan || errors.length) {
    return {
      outcome: {
        exitCode: EXIT_CODES.usage,
        errors: [],
        notes: errors.map((i) => formatIssue(i, parsed.text)),
      },
    };
  }
  for (const warning of parsed.issues) progress(formatIssue(warning, parsed.text));
  return { plan: parsed.plan };
}
