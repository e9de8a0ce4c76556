/**
 * Judges each SLO of the plan against the result document: `pass`, `fail`, `insufficient` (too
 * few requests beyond the percentile to judge it) or `invalid` (the generator limited the run).
 * Percentiles come from the bound stages' histograms merged exactly, never from averages; each
 * judged percentile carries its 95% confidence interval, and a bound inside it is `marginal`.
 *
 * @module
 */
import { type ParsedSlo, parseSlo } from "../plan/parse_slo.ts";
import { requiredRequests } from "../plan/sample_sufficiency.ts";
import { formatDurationMs, formatRatePerSec } from "../plan/units.ts";
import { errorTotal } from "../recorder/request_counts.ts";
import type { RunResult, Verdict } from "../result/run_result.ts";
import { formatMetric } from "./format_metric.ts";
import { type SloScope, sloScope } from "./slo_scope.ts";
import { percentileConfidenceInterval } from "./order_statistics.ts";
import { isSufficient } from "./tail_samples.ts";

/** Options of the SLO gate. */
export interface SloGateOptions {
  /** Requests that must lie beyond a percentile to judge it (default 10). */
  minTailSamples?: number;
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
  const minTail = options.minTailSamples ?? 10;
  return result.plan.slos.map(({ text, line }) => {
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
    if (result.health.toolLimited) {
      return {
        ...verdict(name, line, "invalid", scope.stageIndexes, "", slo.label),
        message: "not judged: the run was tool-limited (see tool health)",
      };
    }
    return judge(name, line, slo, scope, minTail);
  });
}

function judge(
  name: string,
  line: number,
  slo: ParsedSlo,
  scope: SloScope,
  minTail: number,
): Verdict {
  const base = verdict(name, line, "pass", scope.stageIndexes, "", slo.label);
  const n = scope.response.totalCount;
  const m = slo.metric;
  if (m.kind === "error_rate" || m.kind === "throughput") {
    if (scope.counts.completed === 0) {
      return { ...base, status: "insufficient", message: "no request completed in these stages" };
    }
    const measured = m.kind === "error_rate"
      ? errorTotal(scope.counts) / scope.counts.completed
      : scope.counts.completed / (scope.durationMs / 1000);
    const unit = m.kind === "error_rate" ? "fraction" as const : "per_sec" as const;
    return decide(base, slo, measured, unit);
  }
  if (n === 0) {
    return { ...base, status: "insufficient", message: "no request completed in these stages" };
  }
  if (m.kind === "max") return decide(base, slo, scope.response.maxValue, "us");
  if (m.kind === "mean") return decide(base, slo, scope.response.mean, "us");
  const q = m.percentile;
  if (!isSufficient(n, q, minTail)) {
    const needed = requiredRequests(q, minTail);
    const seconds = (needed - n) / Math.max(scope.intendedPerSec, 1e-9);
    return {
      ...base,
      status: "insufficient",
      message: `p${q} needs at least ${needed} requests to be judged (${minTail} beyond it); ` +
        `these stages had ${n}: run about ${formatDurationMs(seconds * 1000)} longer at ` +
        `${formatRatePerSec(scope.intendedPerSec)}, or gate a lower percentile`,
    };
  }
  const ci = percentileConfidenceInterval(scope.response, q);
  const judged = decide(base, slo, scope.response.getValueAtPercentile(q), "us");
  const marginal = slo.bound >= ci.lowUs && slo.bound <= ci.highUs;
  return {
    ...judged,
    ci95: [ci.lowUs, ci.highUs],
    marginal,
    message: judged.message +
      (marginal
        ? "; marginal: the bound lies inside the 95% confidence interval, a rerun could flip it"
        : ""),
  };
}

function decide(base: Verdict, slo: ParsedSlo, measured: number, unit: Verdict["unit"]): Verdict {
  const bound = slo.bound;
  const ok = slo.operator === "<"
    ? measured < bound
    : slo.operator === "<="
    ? measured <= bound
    : slo.operator === ">"
    ? measured > bound
    : measured >= bound;
  const upper = slo.operator.startsWith("<");
  // Headroom relative to a zero bound (`error_rate <= 0%`) is undefined: no margin then.
  const margin = bound === 0
    ? undefined
    : upper
    ? (bound - measured) / bound
    : (measured - bound) / bound;
  const shown = (v: number) => formatMetric(v, unit!);
  return {
    ...base,
    status: ok ? "pass" : "fail",
    measured,
    bound,
    unit,
    ...(margin === undefined ? {} : { margin }),
    message:
      `${ok ? "passed" : "failed"}: measured ${shown(measured)} against ${slo.operator} ${
        shown(bound)
      }` +
      (margin === undefined
        ? ""
        : ` (${
          margin >= 0
            ? `${+(margin * 100).toFixed(1)}% headroom`
            : `${+(-margin * 100).toFixed(1)}% over`
        })`),
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
