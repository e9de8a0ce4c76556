/**
 * Judges each SLO of the plan against the result document with the one decision rule
 * (decision_rule.ts): `pass`, `fail` or `inconclusive` (with its cause and remedy), or `invalid`
 * when the SLO cannot be judged at all (it does not parse, or the result holds no stage or label
 * it names). Percentiles come from the bound stages' histograms merged exactly, never from
 * averages; failed requests count as beyond every latency bound; every verdict carries its
 * measured value whatever its status. Trends and stalls are judged by time_domain_gates.ts;
 * `sustainable_rate` is left to the capacity search (runner/search/).
 *
 * @module
 */
import { type ParsedSlo, parseSlo } from "../plan/parse_slo.ts";
import { formatDurationMs, formatRatePerSec } from "../plan/units.ts";
import { errorTotal } from "../recorder/request_counts.ts";
import type { RunResult, Verdict } from "../model/run_result.ts";
import { applyDecisionRule, type GateEvidence, requestsToDecide } from "./decision_rule.ts";
import { formatMetric } from "./format_metric.ts";
import { metricEvidence } from "./gate_evidence.ts";
import { countBeyond } from "./latency_evidence.ts";
import { type SloScope, sloScope } from "./slo_scope.ts";
import { judgeStalls, judgeTrend } from "./time_domain_gates.ts";
import { failFastVerdict, stoppedOn } from "./fail_fast_verdict.ts";

/** Options of the SLO gate. */
export interface SloGateOptions {
  /** Two-sided confidence of every interval is 1 − alpha (default 0.05: 95%). */
  alpha?: number;
}

/**
 * Evaluates every SLO stored with the result's plan.
 *
 * @example
 * ```ts
 * import { evaluateSlos } from "./evaluate_slos.ts";
 * // for (const v of evaluateSlos(result)) console.log(v.status, v.name, v.message);
 * ```
 */
export function evaluateSlos(result: RunResult, options: SloGateOptions = {}): Verdict[] {
  const alpha = options.alpha ?? 0.05;
  // `sustainable_rate` is the capacity search's finding: a run has nothing to judge it on.
  const own = result.plan.slos.filter(({ text }) => {
    const parsed = parseSlo(text);
    return !parsed.ok || parsed.value.metric.kind !== "sustainable_rate";
  });
  return own.map(({ text, line }) => {
    const parsed = parseSlo(text);
    if (!parsed.ok) {
      return verdict(text, line, "invalid", [], `the SLO does not parse: ${parsed.error.message}`);
    }
    const slo = parsed.value;
    const name = sloName(slo);
    const scope = sloScope(result.stages, slo);
    if ("missing" in scope) {
      return verdict(name, line, "invalid", [], `the result holds ${scope.missing}`, slo.label);
    }
    const base = verdict(name, line, "pass", scope.stageIndexes, "", slo.label);
    if (stoppedOn(result, { text, line })) {
      const unit = slo.metric.kind === "error_rate" ? "fraction" : "us";
      return failFastVerdict(base, { bound: slo.bound, unit }, result);
    }
    if (scope.counts.completed === 0) {
      return {
        ...base,
        status: "inconclusive",
        message: "no request completed in these stages: run the stages this SLO binds to",
      };
    }
    const stages = result.stages.filter((s) => scope.stageIndexes.includes(s.index));
    if (slo.metric.kind === "trend") return judgeTrend(base, slo, stages, result);
    if (slo.metric.kind === "stalls") return judgeStalls(base, slo, stages, result);
    return judge(base, slo, scope, result, alpha);
  });
}

function judge(
  base: Verdict,
  slo: ParsedSlo,
  scope: SloScope,
  result: RunResult,
  alpha: number,
): Verdict {
  const m = slo.metric;
  const e = metricEvidence(m, scope, result, slo.bound, alpha);
  const unit = m.kind === "error_rate" ? "fraction" : m.kind === "throughput" ? "per_sec" : "us";
  const remedy = () =>
    m.kind === "percentile"
      ? sampleRemedy(
        e.n,
        countBeyond(scope.response, e.failures, slo.bound),
        1 - m.percentile / 100,
        scope,
        `requests (${e.failures} failed)`,
        alpha,
      )
      : m.kind === "error_rate"
      ? sampleRemedy(e.n, errorTotal(scope.counts), slo.bound, scope, "requests", alpha)
      : "";
  // The observed max and throughput have no sampling interval to show (a max's is its bucket).
  const ci = m.kind === "throughput" || m.kind === "max"
    ? undefined
    : { low: e.evidence.low, high: e.evidence.high };
  const censored = m.kind === "percentile"
    ? `p${m.percentile} falls among the ${e.failures} failed requests (beyond every bound)`
    : `${e.failures} requests failed, and a failed request is beyond every latency bound`;
  const judged = finish(base, slo, e.measured, unit, e.evidence, remedy, ci, censored);
  return {
    ...judged,
    ...(e.evidence.generatorAllowance > 0
      ? { generatorAllowance: e.evidence.generatorAllowance }
      : {}),
    ...(e.failures > 0 ? { failures: e.failures } : {}),
  };
}

/** Turns the rule's outcome into a verdict with its figures and words. */
function finish(
  base: Verdict,
  slo: ParsedSlo,
  measured: number,
  unit: NonNullable<Verdict["unit"]>,
  evidence: GateEvidence,
  remedy: () => string,
  ci: { low: number; high: number } | undefined,
  censoredText = "",
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
  const highText = ci && Number.isFinite(ci.high) ? show(ci.high) : "unbounded";
  const interval = ci && show(ci.low) !== highText
    ? ` (95% interval ${show(ci.low)} to ${highText})`
    : "";
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
        }: late sends and its measured floor) could explain the excess: use more workers, a ` +
          "bigger or quieter runner, or fewer other jobs beside it",
      );
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

/** "run about 40s longer at 1k/s" from the run length that would decide at the measured share. */
function sampleRemedy(
  n: number,
  beyond: number,
  allowedShare: number,
  scope: SloScope,
  what: string,
  alpha: number,
): string {
  const needed = requestsToDecide(n, beyond, allowedShare, alpha);
  if (needed === undefined) {
    return "the measured share beyond the bound equals the allowed one: no run length decides";
  }
  const seconds = (needed - n) / Math.max(scope.intendedPerSec, 1e-9);
  return `at the share measured, about ${needed} ${what} would decide it (these stages had ${n}): ` +
    `run about ${formatDurationMs(Math.max(seconds, 1) * 1000)} longer at ${
      formatRatePerSec(scope.intendedPerSec)
    }`;
}

/** The verdict's name: the SLO as written, its `for "label"` shown as ` [label]`. */
export function sloName(slo: Pick<ParsedSlo, "text" | "label">): string {
  if (slo.label === undefined) return slo.text.trim();
  return `${slo.text.replace(/\s+for\s+(["']).*?\1/, "").trim()} [${slo.label}]`;
}

function verdict(
  name: string,
  line: number,
  status: Verdict["status"],
  stageIndexes: number[],
  message: string,
  label?: string,
): Verdict {
  return { kind: "slo", name, status, line, stageIndexes, ...(label ? { label } : {}), message };
}
