/**
 * Judges a windowed SLO (`p99 < 50ms over 10s`) in every window of the bound stages
 * (measured_windows.ts) with the one decision rule, the windows taken as one family:
 *
 * - **fail** when any window fails beyond doubt at Holm's step-down level over all the windows
 *   (the k-th window to fail must fail at alpha / (m − k + 1)), so that with m windows the chance
 *   that a server meeting the bound everywhere fails somewhere stays within alpha;
 * - **pass** when every window passes at alpha (an intersection-union test: claiming *all* pass
 *   needs each to pass, and no correction);
 * - **inconclusive** otherwise. A window with too few requests for its figure to pass at all is
 *   named and counted as undecided, never passed.
 *
 * @module
 */
import type { ParsedSlo } from "../../plan/mod.ts";
import { createHistogram } from "../../hdr/mod.ts";
import { requestsToPassSlo } from "../../plan/mod.ts";
import { formatDurationMs, formatLengthMs, formatRatePerSec } from "../../plan/mod.ts";
import type { SloMetric } from "../../plan/mod.ts";
import type { RunResult, StageResult, Verdict, WindowFinding } from "../../model/mod.ts";
import { errorTotal } from "../../model/mod.ts";
import { applyDecisionRule, type GateDecision } from "../decision_rule.ts";
import { type MetricEvidence, metricEvidence } from "../gate_evidence.ts";
import { loadWindow, type MeasuredWindow, measuredWindows } from "./measured_windows.ts";
import type { SloScope } from "./slo_scope.ts";
import { sloVerdict } from "./slo_verdict.ts";
import { worstStatus } from "../../result/mod.ts";
import { type ContendedInterval, contendedIntervals } from "../contention_tail.ts";

/** Findings kept in the verdict; the tally counts them all. */
const MAX_FINDINGS = 200;

interface Judged {
  window: MeasuredWindow;
  evidence: MetricEvidence;
  decision: GateDecision;
  tooFew: boolean;
}

/**
 * Judges `slo` (which has `windowMs`) over the windows of `scope`'s stages.
 */
export function judgeWindows(
  base: Verdict,
  slo: ParsedSlo & { windowMs: number },
  scope: SloScope,
  result: RunResult,
  alpha = 0.05,
): Verdict {
  const m = slo.metric;
  const unit = m.kind === "error_rate" ? "fraction" : "us";
  const windowText = formatDurationMs(slo.windowMs);
  const windows = measuredWindows(
    result.intervals,
    scope.stageIndexes,
    slo.windowMs,
    slo.label,
    slo.series,
  );
  if (windows.length === 0) {
    return {
      ...base,
      status: "inconclusive",
      unit,
      bound: slo.bound,
      causes: ["sampling"],
      windows: {
        windowMs: slo.windowMs,
        judged: 0,
        failed: 0,
        undecided: 0,
        tooFew: 0,
        findings: [],
      },
      message: `no whole ${windowText} window fits in the stages this SLO binds to (they last ` +
        `${formatDurationMs(scope.durationMs)}): shorten the window or lengthen the stage`,
    };
  }
  const fewest = requestsToPassSlo(m, slo.bound, alpha);
  const scratch = createHistogram();
  let contended: readonly ContendedInterval[] | undefined;
  const inWindow = (w: MeasuredWindow) => () =>
    (contended ??= contendedIntervals(result, scope.stageIndexes, slo.label, slo.series)).filter((
      c,
    ) => c.startMs >= w.startMs && c.startMs < w.startMs + w.durationMs);
  const judge = (w: MeasuredWindow, level: number) => {
    const response = loadWindow(scratch, w);
    const group = { response, counts: w.counts, durationMs: w.durationMs, contended: inWindow(w) };
    const evidence = metricEvidence(m, group, result, slo.bound, level);
    return { evidence, decision: applyDecisionRule(slo.operator, slo.bound, evidence.evidence) };
  };
  const candidates = new Set<Judged>();
  const judged: Judged[] = windows.map((window) => {
    const { evidence, decision } = judge(window, alpha);
    const j: Judged = {
      window,
      evidence,
      decision: decision.decision === "fail" ? "inconclusive" : decision.decision,
      tooFew: evidence.n < fewest,
    };
    // Only a window that fails at alpha can fail at a smaller level.
    if (decision.decision === "fail") candidates.add(j);
    return j;
  });
  // Holm's step-down: at each step, the windows still standing that fail at alpha / (m − k).
  let rejected = 0;
  for (;;) {
    const level = alpha / (judged.length - rejected);
    const newly = [...candidates].filter((j) =>
      judge(j.window, level).decision.decision === "fail"
    );
    for (const j of newly) candidates.delete(j);
    if (newly.length === 0) break;
    for (const j of newly) j.decision = "fail";
    rejected += newly.length;
    if (rejected === judged.length) break;
  }
  const failed = judged.filter((j) => j.decision === "fail");
  const undecided = judged.filter((j) => j.decision === "inconclusive");
  const tooFew = judged.filter((j) => j.tooFew && j.decision !== "fail");
  // Window decisions are never `invalid`, so neither is their worst.
  const status = worstStatus(judged.map((j) => j.decision)) as GateDecision;
  const pool = status === "fail" ? failed : status === "inconclusive" ? undecided : judged;
  const worst = worstOf(pool, slo.operator.startsWith("<"));
  const one = sloVerdict(
    base,
    slo,
    worst.evidence.measured,
    unit,
    worst.evidence.evidence,
    () => windowRemedy(worst, m, slo.bound, windowText),
    m.kind === "max"
      ? undefined
      : { low: worst.evidence.evidence.low, high: worst.evidence.evidence.high },
    `${worst.evidence.failures} of its requests failed, beyond every bound`,
    result.run,
  );
  // The worst window's own words, after its place among the windows.
  const detail = one.message.replace(/^(passed|failed|inconclusive): /, "");
  const words = { pass: "passed", fail: "failed", inconclusive: "inconclusive" }[status];
  const tally = status === "pass"
    ? `in all ${judged.length} windows of ${windowText}`
    : status === "fail"
    ? `in ${failed.length} of ${judged.length} windows of ${windowText} (beyond doubt after ` +
      `Holm's correction over all ${judged.length}; failing: ${spans(failed, result.stages)})`
    : `${undecided.length} of ${judged.length} windows of ${windowText} undecided, none failed ` +
      "beyond doubt";
  let message = `${words} ${tally}; the worst, ${place(worst.window, result.stages)}: ${detail}`;
  if (tooFew.length > 0) message += `; ${tooFewText(tooFew, fewest, m, slo.windowMs)}`;
  const findings: WindowFinding[] = judged
    .filter((j) => j.decision !== "pass")
    .slice(0, MAX_FINDINGS)
    .map((j) => ({
      startMs: j.window.startMs,
      durationMs: j.window.durationMs,
      stageIndex: j.window.stageIndex,
      status: j.decision === "fail" ? "fail" : "inconclusive",
      ...(Number.isFinite(j.evidence.measured) ? { measured: j.evidence.measured } : {}),
      requests: j.evidence.n,
      ...(j.tooFew ? { tooFew: true as const } : {}),
    }));
  const { marginal: _marginal, causes: _causes, ...figures } = one;
  const causes = status === "pass" ? [] : status === "fail" ? [] : [
    ...new Set([...(one.causes ?? []), ...(tooFew.length > 0 ? ["sampling" as const] : [])]),
  ];
  return {
    ...figures,
    status,
    ...(status === "inconclusive" && one.marginal ? { marginal: true } : {}),
    ...(causes.length > 0 ? { causes } : {}),
    windows: {
      windowMs: slo.windowMs,
      judged: judged.length,
      failed: failed.length,
      undecided: undecided.length,
      tooFew: tooFew.length,
      findings,
    },
    message,
  };
}

/** The highest figure for an upper bound, the lowest for a lower one; failures count as highest. */
function worstOf(pool: readonly Judged[], upper: boolean): Judged {
  const key = (j: Judged) => upper ? j.evidence.measured : -j.evidence.measured;
  return pool.reduce((a, b) => key(b) > key(a) ? b : a);
}

/** "20–30 s of stage \"steady\"". */
function place(w: MeasuredWindow, stages: readonly StageResult[]): string {
  const stage = stages.find((s) => s.index === w.stageIndex)?.name ?? `stage ${w.stageIndex}`;
  return `${seconds(w.startMs)}–${seconds(w.startMs + w.durationMs)} s of stage "${stage}"`;
}

/** Overlapping failing windows as spans of run time: "18–31 s (steady), 44–54 s (steady)". */
function spans(failed: readonly Judged[], stages: readonly StageResult[]): string {
  const merged: Array<{ startMs: number; endMs: number; stageIndex: number }> = [];
  for (const { window: w } of failed) {
    const last = merged.at(-1);
    if (last && w.startMs <= last.endMs) {
      last.endMs = Math.max(last.endMs, w.startMs + w.durationMs);
    } else {merged.push({
        startMs: w.startMs,
        endMs: w.startMs + w.durationMs,
        stageIndex: w.stageIndex,
      });}
  }
  const text = merged.slice(0, 5).map((s) =>
    `${seconds(s.startMs)}–${seconds(s.endMs)} s (${
      stages.find((x) => x.index === s.stageIndex)?.name ?? `stage ${s.stageIndex}`
    })`
  );
  return text.join(", ") + (merged.length > 5 ? ` and ${merged.length - 5} more` : "");
}

function tooFewText(
  tooFew: readonly Judged[],
  fewest: number,
  metric: SloMetric,
  windowMs: number,
): string {
  const least = tooFew.reduce((a, b) => b.evidence.n < a.evidence.n ? b : a);
  const figure = metric.kind === "percentile" ? `p${metric.percentile}` : metric.kind;
  const perSec = least.evidence.n / (least.window.durationMs / 1000);
  const neededMs = perSec > 0 ? Math.ceil(fewest / perSec) * 1000 : Infinity;
  const fix = Number.isFinite(neededMs) && neededMs > windowMs
    ? `: a window of ${formatLengthMs(neededMs, { compact: true })} at ${
      formatRatePerSec(perSec)
    } would hold enough`
    : "";
  return `${tooFew.length} window${tooFew.length === 1 ? "" : "s"} held too few requests for ` +
    `${figure} to pass (the fewest, ${least.evidence.n} at ${seconds(least.window.startMs)} s; ` +
    `${fewest} needed)${fix}`;
}

function windowRemedy(j: Judged, metric: SloMetric, bound: number, windowText: string): string {
  if (metric.kind !== "percentile" && metric.kind !== "error_rate") return "";
  const share = metric.kind === "error_rate" ? bound : 1 - metric.percentile / 100;
  const beyond = metric.kind === "error_rate" ? errorTotal(j.window.counts) : undefined;
  return `a window of ${windowText} holds ${j.evidence.n} requests` +
    (beyond === undefined ? "" : ` (${beyond} failed)`) +
    `; a longer window or a higher rate narrows the interval (the allowed share is ${+(share * 100)
      .toPrecision(3)}%)`;
}

function seconds(ms: number): string {
  return String(+(ms / 1000).toFixed(ms % 1000 === 0 ? 0 : 1));
}
