/**
 * The A/B comparison's SLO verdicts and its one verdict, pure. SLOs are judged on head's runs:
 * each head run was judged on its own (the decision rule, its own tool health), and an SLO
 * **fails** when some head run failed it beyond doubt, **passes** when every head run passed it,
 * and is otherwise inconclusive (or invalid, when a run could not judge it). The implicit error
 * gate (implicit_error_gate.ts) joins them once some head run needed it.
 *
 * @module
 */
import type { AbComparison, AbResult, AbSloVerdict } from "../../model/ab_result.ts";
import type { RunResult, Verdict, VerdictStatus } from "../../model/run_result.ts";
import { implicitErrorVerdict } from "../slo/mod.ts";
import { statusTally, worstStatus } from "../../result/read/mod.ts";

/**
 * Each SLO of the plan over head's judged runs (in round order).
 */
export function headSloVerdicts(heads: readonly RunResult[]): AbSloVerdict[] {
  const first = heads[0];
  if (first === undefined) return [];
  const slos = first.verdicts.filter((v) => v.kind === "slo" && !v.implicit);
  // The implicit error gate, once any head run needed it, is judged on every head run: one that
  // did not need it (at most 1% failed) is judged the same way, not counted as a pass.
  const implicit = heads.flatMap((h) => h.verdicts).find((v) => v.kind === "slo" && v.implicit);
  const judgedIn = (h: RunResult, slo: Verdict) =>
    h.verdicts.find((v) => v.kind === "slo" && v.name === slo.name && v.line === slo.line)
      ?.status ?? (slo.implicit ? implicitErrorVerdict(h)?.status : undefined) ?? "invalid";
  return [...slos, ...(implicit ? [implicit] : [])].map((slo) => {
    const perRound: VerdictStatus[] = heads.map((h) => judgedIn(h, slo));
    const status = worstStatus(perRound);
    const tally = statusTally(perRound);
    return {
      name: slo.name,
      ...(slo.line === undefined ? {} : { line: slo.line }),
      ...(slo.implicit ? { implicit: true } : {}),
      status,
      perRound,
      message: `head's ${heads.length} run${heads.length === 1 ? "" : "s"}: ${tally}`,
    };
  });
}

/**
 * The one verdict: `fail` when fail-fast stopped a head run (`stoppedBy`), a comparison regressed
 * or an SLO failed, then `invalid`, then `inconclusive`, else `pass`; with the tally in words, and
 * `regressionOnly` when only comparisons are undecided (no SLO).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { abVerdict } from "./ab_verdict.ts";
 * assert.equal(abVerdict([], []).status, "inconclusive"); // nothing was compared
 * ```
 */
export function abVerdict(
  comparisons: readonly AbComparison[],
  slos: readonly AbSloVerdict[],
  stoppedBy?: AbResult["stoppedBy"],
): { status: VerdictStatus; message: string; regressionOnly?: true } {
  if (stoppedBy !== undefined) {
    return {
      status: "fail",
      message: `head's run in round ${stoppedBy.round} was stopped by fail-fast: ` +
        stoppedBy.reason,
    };
  }
  const all: VerdictStatus[] = [...comparisons.map((c) => c.status), ...slos.map((s) => s.status)];
  if (all.length === 0) {
    return { status: "inconclusive", message: "nothing was compared: no round completed soundly" };
  }
  const status = worstStatus(all);
  const regressed = comparisons.filter((c) => c.status === "fail").length;
  const tally = statusTally(all);
  // As a run's verdict: only comparisons undecided, no SLO, is a warning by default (fail_on.ts).
  const regressionOnly = status === "inconclusive" &&
    !slos.some((s) => s.status === "inconclusive");
  return {
    status,
    ...(regressionOnly ? { regressionOnly: true as const } : {}),
    message: `${all.length} gates: ${tally}` +
      (regressed
        ? ` (${regressed} regression${regressed === 1 ? "" : "s"} of head against base)`
        : ""),
  };
}
