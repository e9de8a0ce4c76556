/**
 * The capacity search's gates, pure: each `sustainable_rate >= R` SLO judged on the bracket the
 * steps established, and the search's one verdict over them. The sustainable rate lies at or above
 * the highest rate that passed (below every failure) and below the lowest rate that failed, so a
 * gate passes when that passing rate meets R, fails when a rate at or below R failed, and is
 * inconclusive when R lies between them (the search tries R itself to avoid that) or nothing
 * decided it.
 *
 * @module
 */
import type {
  SearchConclusionRecord,
  SearchGate,
  SearchStep,
  SearchVerdict,
} from "../model/mod.ts";
import type { Slo } from "../plan/mod.ts";
import { formatRatePerSec } from "../plan/mod.ts";
import { bracket } from "./search_strategy.ts";
import { statusTally, worstStatus } from "../result/mod.ts";

/**
 * The `sustainable_rate` SLOs of a plan's SLO list.
 */
export function rateSlos(slos: readonly Slo[]): Slo[] {
  return slos.filter((s) => s.metric.kind === "sustainable_rate");
}

/**
 * Judges each `sustainable_rate` SLO on the steps run.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { judgeRateSlos } from "./search_gates.ts";
 * const slo = { text: "sustainable_rate >= 150/s", metric: { kind: "sustainable_rate" }, operator: ">=", bound: 150, line: 3 } as const;
 * const step = (ratePerSec: number, outcome: "pass" | "fail") => ({ ratePerSec, outcome, soak: false, durationMs: 1000 });
 * assert.equal(judgeRateSlos([slo], [step(100, "pass"), step(200, "pass"), step(400, "fail")])[0].status, "pass");
 * ```
 */
export function judgeRateSlos(
  slos: readonly Slo[],
  steps: readonly Pick<SearchStep, "ratePerSec" | "outcome" | "soak" | "durationMs">[],
): SearchGate[] {
  const { passPerSec, failPerSec } = bracket(steps);
  const held = passPerSec === undefined ? "no rate held" : `${formatRatePerSec(passPerSec)} held`;
  const broke = failPerSec === undefined ? "" : `, ${formatRatePerSec(failPerSec)} failed`;
  return rateSlos(slos).map((slo) => {
    const need = `${slo.operator} ${formatRatePerSec(slo.bound)}`;
    const meets = (r: number) => slo.operator === ">" ? r > slo.bound : r >= slo.bound;
    const base = { kind: "slo" as const, name: slo.text, line: slo.line, bound: slo.bound };
    if (passPerSec !== undefined && meets(passPerSec)) {
      return {
        ...base,
        status: "pass",
        message: `passed: ${held}${broke}, so the sustainable rate is ${need}`,
      };
    }
    // A failure at f puts the sustainable rate below f: at or below the bound, below it.
    if (failPerSec !== undefined && failPerSec <= slo.bound) {
      return {
        ...base,
        status: "fail",
        message: `failed: ${formatRatePerSec(failPerSec)} already broke the SLOs, so the ` +
          `sustainable rate is below it, and not ${need} (${held})`,
      };
    }
    return {
      ...base,
      status: "inconclusive",
      message: `inconclusive: ${held}${broke}; the search did not decide whether the ` +
        `sustainable rate is ${need}` +
        (failPerSec === undefined ? "" : ": a run at the bound itself decides it"),
    };
  });
}

/**
 * The search's one verdict over its gates and conclusion.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { searchVerdict } from "./search_gates.ts";
 * assert.equal(searchVerdict([], { status: "found", ratePerSec: 200, failPerSec: 210 }, true).status, "pass");
 * ```
 */
export function searchVerdict(
  gates: SearchGate[],
  conclusion: SearchConclusionRecord,
  complete: boolean,
): SearchVerdict {
  if (gates.length === 0) {
    const decided = complete && conclusion.status !== "inconclusive";
    const found = conclusion.ratePerSec === undefined
      ? "no rate"
      : formatRatePerSec(conclusion.ratePerSec);
    return decided
      ? { status: "pass", message: `sustainable rate ${found} (no gate to judge)`, gates }
      : {
        status: "inconclusive",
        message: conclusion.reason ?? "the search did not conclude",
        gates,
      };
  }
  // The verdict order is stated once (runner/result/read/verdict_order.ts); a search gate is
  // never `invalid`, so neither is their worst.
  const statuses = gates.map((g) => g.status);
  const status = worstStatus(statuses) as SearchVerdict["status"];
  return {
    status,
    message: `${gates.length} gate${gates.length === 1 ? "" : "s"}: ${statusTally(statuses)}`,
    gates,
  };
}
