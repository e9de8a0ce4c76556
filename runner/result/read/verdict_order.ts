/**
 * The order of verdicts, stated once: `fail` (decided beyond doubt) over `invalid` over
 * `inconclusive` over `pass`. The run's verdict (runner/gates/run_verdict.ts), a set of gates
 * judged on their own (`tailgate compare`), the GitHub Action's job verdict and every report's
 * sorting read it here.
 *
 * @module
 */
import type { RunVerdict, Verdict, VerdictStatus } from "../../model/mod.ts";

/** Statuses from the worst to the best, the order reports list verdicts in when they sort. */
export const STATUS_SEVERITY: readonly VerdictStatus[] = [
  "fail",
  "invalid",
  "inconclusive",
  "pass",
];

/** What the exit policy (runner/result/read/fail_on.ts) reads of a verdict. */
export type VerdictScope = Pick<RunVerdict, "status" | "regressionOnly" | "runnerOnly">;

/**
 * The causes of an undecided gate that are the runner's, not the plan's: the machine's contention,
 * the generator's own delays or schedule, a history too short or scattered, a base build that
 * fails it too (an A/B comparison: not the change's doing). A gate undecided for
 * these alone is no evidence against the server, and more requests would not decide it; one
 * undecided for `sampling` asks for a longer run.
 */
export const RUNNER_CAUSES: readonly NonNullable<Verdict["causes"]>[number][] = [
  "contention",
  "generator",
  "schedule",
  "history",
  "base",
];

/**
 * Whether an undecided gate is undecided for the runner's sake alone: a regression check (its
 * limit is the history's or the rounds' spread, not the plan's), or a gate whose every cause is
 * one of {@linkcode RUNNER_CAUSES}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { undecidedByRunner } from "./verdict_order.ts";
 * assert.equal(undecidedByRunner({ kind: "slo", causes: ["contention"] }), true);
 * assert.equal(undecidedByRunner({ kind: "slo", causes: ["sampling", "schedule"] }), false);
 * assert.equal(undecidedByRunner({ kind: "slo" }), false);
 * ```
 */
export function undecidedByRunner(v: Pick<Verdict, "kind" | "causes">): boolean {
  return v.kind === "regression" ||
    (v.causes !== undefined && v.causes.length > 0 &&
      v.causes.every((c) => RUNNER_CAUSES.includes(c)));
}

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
 * The verdict of a set of gates on their own: the worst status; when it is `inconclusive`,
 * `regressionOnly` if every undecided gate is a regression check, and `runnerOnly` if every one is
 * undecided for the runner's sake ({@linkcode undecidedByRunner}).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { gatesVerdict } from "./verdict_order.ts";
 * assert.deepEqual(gatesVerdict([{ kind: "regression", status: "inconclusive" }]), {
 *   status: "inconclusive",
 *   regressionOnly: true,
 *   runnerOnly: true,
 * });
 * assert.deepEqual(gatesVerdict([{ kind: "slo", status: "inconclusive", causes: ["contention"] }]), {
 *   status: "inconclusive",
 *   runnerOnly: true,
 * });
 * assert.deepEqual(gatesVerdict([{ kind: "slo", status: "inconclusive" }]), { status: "inconclusive" });
 * ```
 */
export function gatesVerdict(
  verdicts: readonly Pick<Verdict, "kind" | "status" | "causes">[],
): VerdictScope {
  const status = worstStatus(verdicts.map((v) => v.status));
  if (status !== "inconclusive") return { status };
  const undecided = verdicts.filter((v) => v.status === "inconclusive");
  return {
    status,
    ...(undecided.every((v) => v.kind === "regression") ? { regressionOnly: true as const } : {}),
    ...(undecided.every(undecidedByRunner) ? { runnerOnly: true as const } : {}),
  };
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

/**
 * Whether two verdicts are the same gate, as judged in two runs of one plan (a rerun, a round):
 * the same kind, name and plan line, and both the implicit error gate or neither.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { sameGate } from "./verdict_order.ts";
 * const slo = { kind: "slo" as const, name: "p99 < 5ms", line: 9 };
 * assert.equal(sameGate(slo, { ...slo }), true);
 * assert.equal(sameGate(slo, { ...slo, line: 10 }), false);
 * assert.equal(sameGate(slo, { ...slo, implicit: true }), false);
 * ```
 */
export function sameGate(
  a: Pick<Verdict, "kind" | "name" | "line" | "implicit">,
  b: Pick<Verdict, "kind" | "name" | "line" | "implicit">,
): boolean {
  return a.kind === b.kind && a.name === b.name && a.line === b.line &&
    Boolean(a.implicit) === Boolean(b.implicit);
}
