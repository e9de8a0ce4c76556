/**
 * What this version validates but does not yet run (issue 44, docs/decisions/journeys.md):
 * journeys and journey SLOs. `tailgate check` accepts them; `run`, `search` and `ab` refuse the
 * plan with these errors, so nothing half-works. (Checks, `check_rate` and `ttfb.` are run.)
 *
 * @module
 */
import type { PlanIssue, ResolvedPlan } from "../types.ts";

/**
 * One error per part of the plan this version cannot run yet, at its line.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { notYetRun } from "./journey_refusal.ts";
 * const plan = { file: "p.yaml", requests: [], slos: [] } as never;
 * assert.deepEqual(notYetRun(plan), []);
 * ```
 */
export function notYetRun(plan: ResolvedPlan): PlanIssue[] {
  const at = (line: number, path: string, message: string): PlanIssue => ({
    severity: "error",
    file: plan.file,
    path,
    line,
    col: 1,
    length: 1,
    message,
    hint: "`tailgate check` validates it; run it with a later version (issue 44), or remove it",
  });
  const out: PlanIssue[] = [];
  for (const j of plan.journeys ?? []) {
    out.push(at(j.line, "requests", `journeys are not yet run by this version (\`${j.name}\`)`));
  }
  for (const slo of plan.slos) {
    const what = slo.series === "journey" ? "journey SLOs" : undefined;
    if (what) out.push(at(slo.line, "slo", `${what} are not yet judged by this version`));
  }
  return out;
}
