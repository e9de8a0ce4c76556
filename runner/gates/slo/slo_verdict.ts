/**
 * An SLO verdict's figures and words from the decision rule's outcome on one figure: what was
 * measured against the bound, the headroom, and why an undecided gate could not be decided, with
 * the run length that would decide it.
 *
 * @module
 */
import type { ParsedSlo } from "../../plan/mod.ts";
import { formatLengthMs, formatRatePerSec } from "../../plan/mod.ts";
import type { Verdict } from "../../model/mod.ts";
import { applyDecisionRule, type GateEvidence, requestsToDecide } from "../decision_rule.ts";
import { type AdviceScope, formatMetric, moreWorkers } from "../../result/mod.ts";
import { contentionReason } from "../contention_tail.ts";

/**
 * Turns the rule's outcome into a verdict with its figures and words.
 */
export function sloVerdict(
  base: Verdict,
  slo: ParsedSlo,
  measured: number,
  unit: NonNullable<Verdict["unit"]>,
  evidence: GateEvidence,
  remedy: () => string,
  ci: { low: number; high: number } | undefined,
  censoredText = "",
  advice?: AdviceScope,
): Verdict {
  const outcome = applyDecisionRule(slo.operator, slo.bound, evidence);
  const show = (v: number) => Number.isFinite(v) ? formatMetric(v, unit) : "beyond every bound";
  const bound = slo.bound;
  const upper = slo.operator.startsWith("<");
  const finite = Number.isFinite(measured);
  const margin = bound === 0 || !finite
    ? undefined
    : upper
    ? (bound - measured) / bound
    : (measured - bound) / bound;
  const interval = intervalText(ci, finite, show);
  const measuredText = finite
    ? `measured ${show(measured)}${interval} against ${slo.operator} ${show(bound)}`
    : `${censoredText}${interval}; the bound is ${slo.operator} ${show(bound)}`;
  const words = outcome.decision === "pass"
    ? "passed"
    : outcome.decision === "fail"
    ? "failed"
    : "inconclusive";
  const headroom = margin === undefined
    ? ""
    : margin >= 0
    ? `, ${+(margin * 100).toFixed(1)}% headroom`
    : `, ${+(-margin * 100).toFixed(1)}% over`;
  let message = `${words}: ${measuredText}${headroom}`;
  if (outcome.decision === "fail" && evidence.generatorAllowance > 0) {
    message += `; beyond what the generator's own delays (up to ${
      show(evidence.generatorAllowance)
    }) could explain`;
  }
  if (outcome.decision === "fail" && evidence.contention !== undefined) {
    message +=
      `; and beyond what the machine's contention could (with the ${evidence.contention.takenOff} ` +
      "requests beyond the bound the service's wait for a CPU could have delayed taken off, the " +
      `interval still starts at ${show(evidence.contention.low)})`;
  }
  const reasons: string[] = [];
  for (const cause of outcome.causes) {
    if (cause === "sampling") {
      const more = remedy();
      reasons.push(
        `the bound lies inside the 95% interval, so this run cannot tell which side of it the ` +
          `server is on${more ? `: ${more}` : ""}`,
      );
    } else if (cause === "generator" && unit === "per_sec") {
      reasons.push(
        `the generator, behind its schedule, sent up to ${
          show(evidence.generatorAllowance)
        } less than planned, which could explain the shortfall`,
      );
    } else if (cause === "generator") {
      reasons.push(
        `the generator's own delays at this percentile (up to ${
          show(evidence.generatorAllowance)
        }: late sends and its measured floor) could explain the excess: use ${
          moreWorkers(advice)
        }, a bigger or quieter runner, or fewer other jobs beside it`,
      );
    } else if (cause === "contention") {
      reasons.push(contentionReason(evidence.contention!, show, advice));
    } else reasons.push(evidence.scheduleShortfall!);
  }
  if (reasons.length > 0) message += `; ${reasons.join("; ")}`;
  return {
    ...base,
    status: outcome.decision,
    ...(finite ? { measured } : { censored: true }),
    bound,
    unit,
    ...(margin === undefined ? {} : { margin }),
    ...(ci && Number.isFinite(ci.low) && Number.isFinite(ci.high)
      ? { ci95: [ci.low, ci.high] as [number, number] }
      : {}),
    ...(outcome.causes.includes("sampling") ? { marginal: true } : {}),
    ...(outcome.causes.length > 0 ? { causes: outcome.causes } : {}),
    message,
  };
}

/**
 * The 95% interval in plain words: `(95% interval 2ms to 3ms)`; with no upper end, `(95% interval:
 * at least 2ms, no upper end)`; of a figure among the failed requests (beyond every bound),
 * `, its 95% interval too` or `, its 95% interval from 2ms up`. Nothing when there is none or it
 * is one value.
 */
function intervalText(
  ci: { low: number; high: number } | undefined,
  finite: boolean,
  show: (v: number) => string,
): string {
  if (ci === undefined) return "";
  const low = Number.isFinite(ci.low);
  const high = Number.isFinite(ci.high);
  if (!finite) return low ? `, its 95% interval from ${show(ci.low)} up` : ", its 95% interval too";
  if (!low) return " (its 95% interval beyond every bound)";
  if (!high) return ` (95% interval: at least ${show(ci.low)}, no upper end)`;
  return show(ci.low) === show(ci.high)
    ? ""
    : ` (95% interval ${show(ci.low)} to ${show(ci.high)})`;
}

/**
 * "run about 40s longer at 1k/s": the run length that would decide at the measured share.
 */
export function sampleRemedy(
  n: number,
  beyond: number,
  allowedShare: number,
  intendedPerSec: number,
  what: string,
  alpha: number,
): string {
  const needed = requestsToDecide(n, beyond, allowedShare, alpha);
  if (needed === undefined) {
    return "the measured share beyond the bound equals the allowed one: no run length decides";
  }
  const seconds = (needed - n) / Math.max(intendedPerSec, 1e-9);
  return `at the share measured, about ${needed} ${what} would decide it (these stages had ${n}): ` +
    `run about ${formatLengthMs(seconds * 1000)} longer at ${formatRatePerSec(intendedPerSec)}`;
}
