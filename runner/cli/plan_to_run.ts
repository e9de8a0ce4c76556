/**
 * Loading a plan before `tailgate run` or `search`: its errors become the command's outcome (exit
 * 2, every located issue), and its warnings are shown at once, before anything runs, when they can
 * still change the user's mind.
 *
 * @module
 */
import { EXIT_CODES } from "../model/exit_codes.ts";
import { formatIssue } from "../plan/format_issue.ts";
import { loadPlan } from "../plan/load_plan.ts";
import type { ResolvedPlan } from "../plan/types.ts";
import type { CommandOutcome } from "./command.ts";

/**
 * The plan at `path`, ready to run, or the outcome that refuses it.
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
): Promise<{ plan: ResolvedPlan } | { outcome: CommandOutcome }> {
  const parsed = await loadPlan(path, { requireEnv: true });
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
