/**
 * The order of verdicts, stated once: `fail` (decided beyond doubt) over `invalid` over
 * `inconclusive` over `pass`. The run's verdict (runner/gates/run_verdict.ts), a set of gates
 * judged on their own (`tailgate compare`), the GitHub Action's job verdict and every report's
 * sorting read it here.
 *
 * @module
 */
import type { RunVerdict, Verdict, VerdictStatus } from "../../model/run_result.ts";

/** Statuses from the worst to the best, the order reports list verdicts in when they sort. */
export const STATUS_SEVERITY: readonly VerdictStatus[] = [
  "fail",
  "invalid",
  "inconclusive",
  "pass",
];

/** What the exit policy (runner/gates/fail_on.ts) reads of a verdict. */
export type VerdictScope = Pick<RunVerdict, "status" | "regressionOnly">;

/**
 * The worst of several statuses by {@linkcode STATUS_SEVERITY}; `pass` when there are none.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { worstStatus } from "./verdict_order.ts";
 * assert.equal(worstStatus(["pass", "inconclusive", "fail"]), "fail");
 * assert.equal(worstStatus([]), "pass");
 * ```
 */
export function worstStatus(statuses: Iterable<VerdictStatus>): VerdictStatus {
  let worst = STATUS_SEVERITY.length - 1;
  for (const s of statuses) worst = Math.min(worst, STATUS_SEVERITY.indexOf(s));
  return STATUS_SEVERITY[worst];
}

/**
 * The verdict of a set of gates on their own: the worst status, and `regressionOnly` when it is
 * `inconclusive` and every undecided gate is a regression check.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { gatesVerdict } from "./verdict_order.ts";
 * assert.deepEqual(gatesVerdict([{ kind: "regression", status: "inconclusive" }]), {
 *   status: "inconclusive",
 *   regressionOnly: true,
 * });
 * assert.deepEqual(gatesVerdict([{ kind: "slo", status: "inconclusive" }]), { status: "inconclusive" });
 * ```
 */
export function gatesVerdict(verdicts: readonly Pick<Verdict, "kind" | "status">[]): VerdictScope {
  const status = worstStatus(verdicts.map((v) => v.status));
  const undecided = verdicts.filter((v) => v.status === "inconclusive");
  return status === "inconclusive" && undecided.every((v) => v.kind === "regression")
    ? { status, regressionOnly: true }
    : { status };
}

/**
 * How many of `statuses` there are of each, worst first, the absent ones left out.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { statusTally } from "./verdict_order.ts";
 * assert.equal(statusTally(["pass", "fail", "pass"]), "1 fail, 2 pass");
 * ```
 */
export function statusTally(statuses: readonly VerdictStatus[]): string {
  return STATUS_SEVERITY.map((s) => [s, statuses.filter((x) => x === s).length] as const)
    .filter(([, n]) => n > 0).map(([s, n]) => `${n} ${s}`).join(", ");
}
