/**
 * What this version validates but does not yet run (issue 44, docs/decisions/journeys.md): a
 * journey SLO over a window (`journey.p99 < 1s over 10s`): journey times are kept per stage, not
 * per second. `tailgate check` accepts it; `run`, `search` and `ab` refuse the plan with this
 * error, so nothing half-works.
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
  const at = (
    line: number,
    path: string,
    message: string,
    hint = "judge the journey over whole stages (drop `over`), or gate its steps over windows",
  ): PlanIssue => ({
    severity: "error",
    file: plan.file,
    path,
    line,
    col: 1,
    length: 1,
    message,
    hint,
  });
  const out: PlanIssue[] = [];
  for (const slo of plan.slos) {
    if (slo.series === "journey" && slo.windowMs !== undefined) {
      out.push(
        at(
          slo.line,
          "slo",
          "journey SLOs over a window (`over`) are not yet judged by this version",
        ),
      );
    }
  }
  return out;
}
