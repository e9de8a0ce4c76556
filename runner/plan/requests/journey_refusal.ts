/**
 * What this version validates but does not yet run (issue 44, docs/decisions/journeys.md): a
 * journey SLO over a window (`journey.p99 < 1s over 10s`): journey times are kept per stage, not
 * per second. And a plan of gRPC calls (issue 46): `tailgate check` reads its `.proto` files,
 * calls and messages, but the engine does not send them yet. `tailgate check` accepts them;
 * `run`, `search` and `ab` refuse the plan with this error, so nothing half-works.
 *
 * @module
 */
import type { PlanIssue, ResolvedPlan } from "../types.ts";
import { grpcLine } from "../grpc/mod.ts";

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
  if (plan.grpc !== undefined) {
    out.push(at(
      grpcLine(plan.grpc),
      "grpc",
      "gRPC calls are checked (`tailgate check`) but not yet sent by this version",
      "nothing was sent; run the calls with ghz meanwhile, or test the service's HTTP API",
    ));
  }
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
