/**
 * What this version validates but does not yet run (issue 44, docs/decisions/journeys.md):
 * checks on single requests, a journey step's captures and checks beyond `status` (they read the
 * body), ttfb and check_rate SLOs, a journey SLO over a window. Journeys (their steps, think
 * times, drawn values and `status` checks) and their `journey.` SLOs run.
 * `tailgate check` accepts the rest; `run`, `search` and `ab` refuse the plan with these errors,
 * so nothing half-works.
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
    // A step's captures and checks beyond its status read the response's body and headers,
    // which the readers keep once checks on requests land (issue 44, helper B's branch).
    const reads = j.steps.find((s) =>
      s.captures.length > 0 || (s.checks ?? []).some((c) => c.kind !== "status")
    );
    if (reads) {
      out.push(
        at(
          reads.line,
          "requests",
          `a journey step's captures and checks beyond \`status\` are not yet run (\`${reads.label}\`)`,
        ),
      );
    }
  }
  for (const r of plan.requests) {
    const first = r.checks?.[0];
    if (first) {
      out.push(
        at(first.line, "requests", `checks are not yet run by this version (\`${r.label}\`)`),
      );
    }
  }
  for (const slo of plan.slos) {
    const what = slo.series === "journey"
      ? (slo.windowMs !== undefined ? "journey SLOs over a window (`over`)" : undefined)
      : slo.series === "ttfb"
      ? "time to first byte (`ttfb.`)"
      : slo.metric.kind === "check_rate"
      ? "`check_rate` SLOs"
      : undefined;
    if (what) out.push(at(slo.line, "slo", `${what} are not yet judged by this version`));
  }
  return out;
}
