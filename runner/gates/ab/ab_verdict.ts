/**
 * The A/B comparison's one verdict, pure, over its paired comparisons and its SLOs (judged on the
 * pooled rounds: ab_slos.ts).
 *
 * @module
 */
import type { AbComparison, AbResult, AbSloVerdict } from "../../model/mod.ts";
import type { VerdictStatus } from "../../model/mod.ts";
import { gatesVerdict, statusTally } from "../../result/mod.ts";

/**
 * The one verdict: `fail` when fail-fast stopped a head run (`stoppedBy`); `invalid` when the
 * comparison was stopped before its rounds were run (`interrupted`: what ran is compared and
 * reported, but an incomplete comparison decides nothing, and a cut-off run is never the server's
 * failure); else as a run's gates: a comparison that regressed or an SLO that failed, then
 * `invalid`, then `inconclusive`, else `pass`, with the tally in words, `regressionOnly` when only
 * comparisons are undecided, and `runnerOnly` when every undecided gate is a comparison or an SLO
 * the runner (or the base build) left undecided.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { abVerdict } from "./ab_verdict.ts";
 * assert.equal(abVerdict([], []).status, "inconclusive"); // nothing was compared
 * assert.equal(abVerdict([], [], undefined, { round: 9 }).status, "invalid");
 * ```
 */
export function abVerdict(
  comparisons: readonly AbComparison[],
  slos: readonly AbSloVerdict[],
  stoppedBy?: AbResult["stoppedBy"],
  interrupted?: { round: number },
): AbResult["verdict"] {
  if (stoppedBy !== undefined) {
    return {
      status: "fail",
      message: `head's run in round ${stoppedBy.round} was stopped by fail-fast: ` +
        stoppedBy.reason,
    };
  }
  if (interrupted !== undefined) {
    return {
      status: "invalid",
      message: `the comparison was stopped in round ${interrupted.round}, before every round ` +
        "ran: what ran is compared and reported, but an incomplete comparison decides nothing " +
        "(a cut-off run is never the server's failure); run it to its end",
    };
  }
  const gates = [
    ...comparisons.map((c) => ({ kind: "regression" as const, status: c.status })),
    ...slos.map((s) => ({ kind: "slo" as const, status: s.status, causes: s.causes })),
  ];
  if (gates.length === 0) {
    return { status: "inconclusive", message: "nothing was compared: no round completed soundly" };
  }
  const verdict = gatesVerdict(gates);
  const regressed = comparisons.filter((c) => c.status === "fail").length;
  const tally = statusTally(gates.map((g) => g.status as VerdictStatus));
  return {
    ...verdict,
    message: `${gates.length} gates: ${tally}` +
      (regressed
        ? ` (${regressed} regression${regressed === 1 ? "" : "s"} of head against base)`
        : ""),
  };
}
