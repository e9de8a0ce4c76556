/**
 * Loading a plan before `tailgate run` or `search`: its errors become the command's outcome (exit
 * 2, every located issue), and its warnings are shown at once, before anything runs, when they can
 * still change the user's mind.
 *
 * @module
 */
import { EXIT_CODES } from "../model/mod.ts";
import { formatIssue } from "../plan/mod.ts";
import { join } from "node:path";
import { loadPlan, parsePlanText } from "../plan/mod.ts";
import { notYetRun } from "../plan/mod.ts";
import type { PlanIssue, ResolvedPlan } from "../plan/mod.ts";
import type { PlanOverrides } from "../plan/mod.ts";
import type { CommandOutcome } from "./command.ts";
import { dataExhaustion } from "../schedule/mod.ts";

/** How {@linkcode planToRun} reads the plan. */
export interface PlanToRunOptions {
  /** An ad-hoc run's plan text (made from its flags) instead of the file at `path`. */
  text?: string;
  /** Whether unset `${env.X}` are errors (default true; printing a plan needs no secret). */
  requireEnv?: boolean;
  /** Command-line overrides of the plan's load. */
  overrides?: PlanOverrides;
  /** How an issue is printed (an ad-hoc run names the flag behind it); default `formatIssue`. */
  formatIssue?: (issue: PlanIssue) => string;
  /**
   * Further warnings about a valid plan, shown with its own before anything runs (`tailgate ab`:
   * the tail percentiles one round cannot decide).
   */
  warnings?: (plan: ResolvedPlan, text: string) => PlanIssue[];
}

/**
 * The plan at `path` (or, for an ad-hoc run, made from `text`), ready to run, or the outcome that
 * refuses it.
 */
export async function planToRun(
  path: string,
  progress: (line: string) => void,
  options: PlanToRunOptions = {},
): Promise<{ plan: ResolvedPlan; text: string } | { outcome: CommandOutcome }> {
  const requireEnv = options.requireEnv ?? true;
  const overrides = options.overrides ? { overrides: options.overrides } : {};
  // An ad-hoc run's plan is made from its flags; body files are relative to the current folder.
  const parsed = options.text === undefined
    ? await loadPlan(path, { requireEnv, ...overrides })
    : parsePlanText(options.text, {
      file: join(Deno.cwd(), "tailgate-run.yaml"),
      requireEnv,
      ...overrides,
    });
  // A data source the schedule would run out of is refused before anything is sent.
  if (parsed.plan) parsed.issues.push(...dataExhaustion(parsed.plan).issues);
  // Journeys, checks and their SLOs are checked by `tailgate check` but not yet sent.
  if (parsed.plan) parsed.issues.push(...notYetRun(parsed.plan));
  const format = options.formatIssue ?? ((i: PlanIssue) => formatIssue(i, parsed.text));
  const errors = parsed.issues.filter((i) => i.severity === "error");
  if (!parsed.plan || errors.length) {
    return {
      outcome: {
        exitCode: EXIT_CODES.usage,
        errors: [],
        notes: errors.map(format),
      },
    };
  }
  parsed.issues.push(...options.warnings?.(parsed.plan, parsed.text) ?? []);
  for (const warning of parsed.issues) progress(format(warning));
  return { plan: parsed.plan, text: parsed.overriddenText ?? parsed.text };
}
