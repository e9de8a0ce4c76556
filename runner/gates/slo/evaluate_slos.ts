/**
 * Judges each SLO of the plan against the result document with the one decision rule
 * (decision_rule.ts): `pass`, `fail` or `inconclusive` (with its cause and remedy), or `invalid`
 * when the SLO cannot be judged at all (it does not parse, or the result holds no stage or label
 * it names). Percentiles come from the bound stages' histograms merged exactly, never from
 * averages; failed requests count as beyond every latency bound; every verdict carries its
 * measured value whatever its status. Windowed SLOs (`over 10s`) are judged by judge_windows.ts,
 * trends and stalls by time_domain_gates.ts;
 * `sustainable_rate` is left to the capacity search (runner/search/).
 *
 * @module
 */
import type { ParsedSlo } from "../../plan/mod.ts";
import { errorTotal } from "../../model/mod.ts";
import type { RunResult, Verdict } from "../../model/mod.ts";
import { metricEvidence } from "../gate_evidence.ts";
import { judgeWindows } from "./judge_windows.ts";
import { countBeyond } from "../latency_evidence.ts";
import { contendedIntervals } from "../contention_tail.ts";
import { type SloScope, sloScope } from "./slo_scope.ts";
import { journeyScope } from "./journey_scope.ts";
import { sampleRemedy, sloVerdict } from "./slo_verdict.ts";
import { judgeStalls, judgeTrend } from "./time_domain_gates.ts";
import { judgeCheckRate } from "./check_rate_gate.ts";
import { failFastVerdict, stoppedOn } from "../fail_fast/mod.ts";
import { type StoredSlo, storedSlos } from "../../result/mod.ts";

/** Options of the SLO gate. */
export interface SloGateOptions {
  /** Two-sided confidence of every interval is 1 − alpha (default 0.05: 95%). */
  alpha?: number;
}

/**
 * Evaluates every SLO stored with the result's plan.
 */
export function evaluateSlos(result: RunResult, options: SloGateOptions = {}): Verdict[] {
  return judgeSlos(result, storedSlos(result.plan), options);
}

/**
 * Evaluates `slos` (parsed: runner/result/read/stored_slos.ts) against the result, as if its plan
 * stored them.
 */
export function judgeSlos(
  result: RunResult,
  slos: readonly StoredSlo[],
  options: SloGateOptions = {},
): Verdict[] {
  const alpha = options.alpha ?? 0.05;
  // `sustainable_rate` is the capacity search's finding: a run has nothing to judge it on.
  const own = slos.filter(({ parsed }) =>
    !parsed.ok || parsed.value.metric.kind !== "sustainable_rate"
  );
  return own.map(({ text, line, parsed }) => {
    if (!parsed.ok) {
      return verdict(
        text,
        line,
        "invalid",
        [],
        `the SLO does not parse: ${parsed.problems[0].message}`,
      );
    }
    const slo = parsed.value;
    const name = sloName(slo);
    const journey = slo.series === "journey";
    const scope = journey ? journeyScope(result.stages, slo) : sloScope(result.stages, slo);
    if ("missing" in scope) {
      return verdict(name, line, "invalid", [], `the result holds ${scope.missing}`, slo.label);
    }
    const base = verdict(name, line, "pass", scope.stageIndexes, "", slo.label);
    if (stoppedOn(result, { text, line })) {
      const rate = slo.metric.kind === "error_rate" || slo.metric.kind === "check_rate";
      const unit = rate ? "fraction" : "us";
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
    if (slo.metric.kind === "check_rate") {
      return judgeCheckRate(base, slo, result, scope.intendedPerSec, alpha);
    }
    if (journey && slo.windowMs !== undefined) {
      // A result holds journey times per stage, not per interval.
      return { ...base, status: "invalid", message: "a journey SLO is judged over whole stages" };
    }
    if (slo.windowMs !== undefined) {
      return judgeWindows(base, { ...slo, windowMs: slo.windowMs }, scope, result, alpha);
    }
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
  // Journey times are kept per stage, not per interval: no contention allowance for them.
  const contended = () =>
    slo.series === "journey"
      ? []
      : contendedIntervals(result, scope.stageIndexes, slo.label, slo.series);
  const e = metricEvidence(m, { ...scope, contended }, result, slo.bound, alpha);
  const unit = m.kind === "error_rate" ? "fraction" : m.kind === "throughput" ? "per_sec" : "us";
  const remedy = () =>
    m.kind === "percentile"
      ? sampleRemedy(
        e.n,
        countBeyond(scope.response, e.failures, slo.bound),
        1 - m.percentile / 100,
        scope.intendedPerSec,
        `requests (${e.failures} failed)`,
        alpha,
      )
      : m.kind === "error_rate"
      ? sampleRemedy(
        e.n,
        errorTotal(scope.counts),
        slo.bound,
        scope.intendedPerSec,
        "requests",
        alpha,
      )
      : "";
  // The observed max and throughput have no sampling interval to show (a max's is its bucket).
  const ci = m.kind === "throughput" || m.kind === "max"
    ? undefined
    : { low: e.evidence.low, high: e.evidence.high };
  const censored = m.kind === "percentile"
    ? `p${m.percentile} falls among the ${e.failures} failed requests (beyond every bound)`
    : `${e.failures} requests failed, and a failed request is beyond every latency bound`;
  const judged = sloVerdict(
    base,
    slo,
    e.measured,
    unit,
    e.evidence,
    remedy,
    ci,
    censored,
    result.run,
  );
  return {
    ...judged,
    ...(e.evidence.generatorAllowance > 0
      ? { generatorAllowance: e.evidence.generatorAllowance }
      : {}),
    ...(e.failures > 0 ? { failures: e.failures } : {}),
  };
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
