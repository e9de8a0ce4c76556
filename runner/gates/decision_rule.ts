/**
 * The one decision rule every gate uses. A gate has an interval for its measured figure (sampling
 * uncertainty) and an allowance for what the generator itself may have added to it (late sends,
 * its own pauses). It **fails** when the whole interval, less that allowance, is beyond the bound:
 * then neither chance nor the tool can explain the excess, and a tool-limited run fails too. It
 * **passes** when the whole interval is within the bound and the generator held its schedule (one
 * that fell behind may have spared the server load, so it cannot pass). Otherwise it is
 * **inconclusive**, and says why: the bound lies inside the interval (more requests decide), the
 * generator's own pauses could explain the excess, the machine's contention could (other work kept
 * the service from a CPU while the excess was measured), or the schedule was not held.
 *
 * @module
 */
import type { SloOperator } from "../plan/mod.ts";
import type { RunContention } from "../model/mod.ts";
import { binomialLowerTail, binomialUpperTail } from "./stats/mod.ts";

/** A gate's outcome under the rule. */
export type GateDecision = "pass" | "fail" | "inconclusive";

/** Why a gate could not be decided. */
export type UndecidedCause = "sampling" | "generator" | "schedule" | "contention";

/** What the rule weighs, all in the gate's unit. */
export interface GateEvidence {
  /** The figure's confidence interval; `high` may be Infinity (failures, too few requests). */
  low: number;
  high: number;
  /** How much the generator may have moved the figure against the server (>= 0). */
  generatorAllowance: number;
  /** Set when the generator did not hold its schedule: why, in words. */
  scheduleShortfall?: string;
  /**
   * Set when the run measured the machine's contention and it could have delayed some of the
   * judged requests (contention_tail.ts): `low` and `high` are the interval with those requests'
   * latency taken off (at most `low` and `high` above), `takenOff` how many they were, `run` the
   * run's contention. An upper-bound gate fails only when `low` fails too, and an interval that
   * reaches beyond the bound is the machine's, not too few requests', when `high` does not.
   */
  contention?: { low: number; high: number; takenOff: number; run: RunContention };
}

/** The decision and, when inconclusive, every cause that applies. */
export interface RuleOutcome {
  decision: GateDecision;
  causes: UndecidedCause[];
}

/** Whether `value` meets `operator bound`. */
export function meets(value: number, operator: SloOperator, bound: number): boolean {
  switch (operator) {
    case "<":
      return value < bound;
    case "<=":
      return value <= bound;
    case ">":
      return value > bound;
    case ">=":
      return value >= bound;
  }
}

/**
 * Applies the rule. For an upper bound (`<`, `<=`: latencies, error rate) the generator can only
 * have made the figure larger, so a fail must hold for `low − allowance`; for a lower bound (`>`,
 * `>=`: throughput) it can only have made it smaller, so a fail must hold for `high + allowance`.
 */
export function applyDecisionRule(
  operator: SloOperator,
  bound: number,
  e: GateEvidence,
): RuleOutcome {
  const upper = operator === "<" || operator === "<=";
  const worstForServer = upper ? e.low - e.generatorAllowance : e.high + e.generatorAllowance;
  const sampledWorst = upper ? e.low : e.high;
  const bestForServer = upper ? e.high : e.low;
  if (!meets(worstForServer, operator, bound)) {
    // Beyond what chance and the generator explain; the machine's contention may still explain it:
    // only an excess that remains with its slowest requests taken off fails.
    const beside = upper && e.contention ? e.contention.low - e.generatorAllowance : undefined;
    if (beside === undefined || !meets(beside, operator, bound)) {
      return { decision: "fail", causes: [] };
    }
    return {
      decision: "inconclusive",
      causes: ["contention", ...(e.scheduleShortfall === undefined ? [] : ["schedule" as const])],
    };
  }
  if (meets(bestForServer, operator, bound) && e.scheduleShortfall === undefined) {
    return { decision: "pass", causes: [] };
  }
  const causes: UndecidedCause[] = [];
  if (!meets(bestForServer, operator, bound)) {
    // The interval reaches beyond the bound but its other end does not, or only the allowance
    // keeps it from failing; with what the machine's contention could have delayed taken off,
    // the whole interval may lie within it: then the runner left it undecided, not the plan.
    const besideBest = upper ? e.contention?.high : undefined;
    causes.push(
      besideBest !== undefined && meets(besideBest, operator, bound)
        ? "contention"
        : meets(sampledWorst, operator, bound)
        ? "sampling"
        : "generator",
    );
  }
  if (e.scheduleShortfall !== undefined) causes.push("schedule");
  return { decision: "inconclusive", causes };
}

/**
 * How many requests in all would decide a tail proportion, if the share beyond the bound stayed as
 * measured: the smallest n' at which `beyond / n` of n' requests lies outside the binomial test's
 * `1 − alpha` (two-sided) region for the allowed share `allowedShare`. Undefined when no run
 * length decides (the measured share equals the allowed one) or more than `cap` would be needed.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { requestsToDecide } from "./decision_rule.ts";
 * assert.equal(requestsToDecide(50, 0, 0.0001), 36_887); // no failure in 36,887 requests shows p99.99 is met
 * ```
 */
export function requestsToDecide(
  n: number,
  beyond: number,
  allowedShare: number,
  alpha = 0.05,
  cap = 1e10,
): number | undefined {
  const share = n > 0 ? beyond / n : 0;
  if (Math.abs(share - allowedShare) < 1e-12) return undefined;
  const decides = (m: number) =>
    share < allowedShare
      ? binomialLowerTail(m, allowedShare, Math.floor(share * m)) <= alpha / 2
      : binomialUpperTail(m, allowedShare, Math.ceil(share * m)) <= alpha / 2;
  let high = Math.max(1, n);
  while (!decides(high)) {
    if (high > cap) return undefined;
    high *= 2;
  }
  let low = Math.max(1, Math.floor(high / 2));
  while (low < high) {
    const mid = Math.floor((low + high) / 2);
    if (decides(mid)) high = mid;
    else low = mid + 1;
  }
  return high;
}
