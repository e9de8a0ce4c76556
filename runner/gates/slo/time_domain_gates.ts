/**
 * The time-domain SLOs: `trend(p99) < 1ms/min` and `stalls == 0` (docs/plan.md), judged from each
 * bound stage's time-domain analysis (runner/result/time_domain.ts) with the one decision rule:
 *
 * - **trend**: the Theil–Sen slope's 95% interval. Fails when a stage's whole interval is beyond
 *   the bound, passes when every judged stage's interval is within it and the generator held its
 *   schedule, inconclusive otherwise (or when no bound stage is a constant one long enough for a
 *   trend: ten whole seconds).
 * - **stalls**: the count the analysis lists. A stall the generator's own pauses could explain
 *   (its worst engine stall or platform hiccup takes the interval's max below the stall threshold,
 *   or an interval with nothing answered while it was paused half a second) is not counted
 *   against the server, nor is one the machine's contention could explain (the service waited for
 *   a CPU, in that second or the next, as long as the stall's excess): the gate fails on the
 *   stalls beyond doubt, passes when even all of them are within the bound, and is inconclusive
 *   between, or when the stages were too short to show stalls.
 *
 * @module
 */
import type { ParsedSlo } from "../../plan/mod.ts";
import { formatDurationMs, formatSlopeUsPerMin } from "../../plan/mod.ts";
import type { RunResult, StageResult, Trend, Verdict } from "../../model/mod.ts";
import { MIN_TREND_INTERVALS, stallThresholdUs } from "../../result/mod.ts";
import { latenessLimitUs } from "../../result/mod.ts";
import { applyDecisionRule, type GateDecision, type GateEvidence } from "../decision_rule.ts";
import { scheduleShortfall } from "../generator_allowance.ts";
import { confirmReruns, intervalWaitMs, STATUS_SEVERITY } from "../../result/mod.ts";

/** An interval with nothing answered is the generator's doing if it paused this long (µs). */
const SILENCE_PAUSE_US = 500_000;

/**
 * Judges a `trend(pNN)` SLO over the bound stages.
 */
export function judgeTrend(
  base: Verdict,
  slo: ParsedSlo,
  stages: readonly StageResult[],
  result: Pick<RunResult, "health" | "run">,
): Verdict {
  const percentile = slo.metric.kind === "trend" ? slo.metric.percentile : 99;
  const judged = stages.flatMap((s) => {
    const t = percentile === 50 ? s.timeDomain?.trendP50UsPerMin : s.timeDomain?.trendP99UsPerMin;
    return t === undefined ? [] : [{ stage: s, trend: t }];
  });
  const skipped = stages.filter((s) => !judged.some((j) => j.stage === s)).map((s) => s.name);
  const skippedText = skipped.length
    ? `; not judged (ramps have no trend, and a trend needs ${MIN_TREND_INTERVALS} whole seconds ` +
      `at one rate): ${skipped.join(", ")}`
    : "";
  if (judged.length === 0) {
    return {
      ...base,
      status: "inconclusive",
      unit: "us_per_min",
      bound: slo.bound,
      causes: ["sampling"],
      message: `no bound stage is a constant-rate stage of ${MIN_TREND_INTERVALS}s or more, so ` +
        `there is no trend to judge${skippedText}: add one, or bind one with \`at <rate>\``,
    };
  }
  const shortfall = scheduleShortfall(result, latenessLimitUs());
  const outcomes = judged.map((j) => ({
    ...j,
    outcome: applyDecisionRule(slo.operator, slo.bound, evidenceOf(j.trend, shortfall)),
  }));
  // The stage that decides: a failing one, else an undecided one, else the steepest.
  const rank = (d: GateDecision) => STATUS_SEVERITY.indexOf(d);
  const worst =
    [...outcomes].sort((a, b) =>
      rank(a.outcome.decision) - rank(b.outcome.decision) || b.trend.high - a.trend.high
    )[0];
  const t = worst.trend;
  const show = formatSlopeUsPerMin;
  const words = { pass: "passed", fail: "failed", inconclusive: "inconclusive" }[
    worst.outcome.decision
  ];
  let message = `${words}: p${percentile} moves ${show(t.slope)} (95% interval ${show(t.low)} to ` +
    `${show(t.high)}) over ${worst.stage.name} against ${slo.operator} ${show(slo.bound)}`;
  if (judged.length > 1) message += ` (the ${worst.outcome.decision} of ${judged.length} stages)`;
  const reasons = worst.outcome.causes.map((c) =>
    c === "schedule"
      ? shortfall!
      : "the bound lies inside the slope's 95% interval, so this run cannot tell which side of " +
        "it the drift is: a longer stage narrows the interval"
  );
  if (reasons.length) message += `; ${reasons.join("; ")}`;
  return {
    ...base,
    status: worst.outcome.decision,
    stageIndexes: judged.map((j) => j.stage.index),
    measured: t.slope,
    bound: slo.bound,
    unit: "us_per_min",
    ci95: [t.low, t.high],
    ...(worst.outcome.causes.includes("sampling") ? { marginal: true } : {}),
    ...(worst.outcome.causes.length ? { causes: worst.outcome.causes } : {}),
    message: message + skippedText,
  };
}

function evidenceOf(t: Trend, shortfall: string | undefined): GateEvidence {
  return {
    low: t.low,
    high: t.high,
    generatorAllowance: 0,
    ...(shortfall === undefined ? {} : { scheduleShortfall: shortfall }),
  };
}

/**
 * Judges a `stalls` SLO over the bound stages.
 */
export function judgeStalls(
  base: Verdict,
  slo: ParsedSlo,
  stages: readonly StageResult[],
  result: Pick<RunResult, "health" | "run" | "intervals">,
): Verdict {
  const h = result.health;
  // The generator's worst own pause: whatever it may have added to any one interval's max.
  const pauseUs = Math.max(h.engineStall?.maxUs ?? 0, h.platformHiccup?.maxUs ?? 0);
  // What the machine kept the service waiting in a stall's second or the next (us).
  const source = h.contention?.source ?? "none";
  const machineUs = (startMs: number) => {
    const i = result.intervals.findIndex((iv) => Math.abs(iv.startMs - startMs) < 1);
    if (i < 0) return 0;
    const wait = (k: number) => intervalWaitMs(result.intervals[k]?.contention, source);
    return Math.max(wait(i), wait(i + 1)) * 1000;
  };
  let total = 0;
  let certain = 0;
  let machine = 0;
  const listed: string[] = [];
  for (const stage of stages) {
    const td = stage.timeDomain;
    if (td === undefined) continue;
    const threshold = td.stallThresholdUs ??
      stallThresholdUs(stage.response.percentilesUs["50"] ?? 0);
    for (const stall of td.stalls) {
      total++;
      const waitUs = machineUs(stall.startMs);
      const beyond = (allowanceUs: number) =>
        stall.why === "nothing answered"
          ? allowanceUs < SILENCE_PAUSE_US
          : stall.maxUs - allowanceUs > threshold;
      const server = beyond(pauseUs + waitUs);
      if (server) certain++;
      else if (beyond(pauseUs)) machine++;
      listed.push(
        `${formatDurationMs(stall.startMs)} (${
          stall.why === "slow" ? `max ${formatDurationMs(stall.maxUs / 1000)}` : stall.why
        }${
          server
            ? ""
            : beyond(pauseUs)
            ? `, could be the machine's: the service waited ${
              formatDurationMs(waitUs / 1000)
            } for a CPU`
            : ", could be the generator's"
        })`,
      );
    }
  }
  const measuredMs = stages.reduce((sum, s) => sum + s.durationMs, 0);
  const shortfall = scheduleShortfall(result, latenessLimitUs());
  const evidence: GateEvidence = {
    low: total,
    high: total,
    generatorAllowance: total - certain,
    ...(shortfall === undefined ? {} : { scheduleShortfall: shortfall }),
  };
  const outcome = applyDecisionRule(slo.operator, slo.bound, evidence);
  const tooShort = outcome.decision === "pass" && measuredMs < MIN_TREND_INTERVALS * 1000;
  const decision = tooShort ? "inconclusive" : outcome.decision;
  // Stalls only the machine's contention explains are its cause, not the generator's.
  const causes = tooShort
    ? ["sampling" as const]
    : outcome.causes.flatMap((c) =>
      c !== "generator"
        ? [c]
        : machine === total - certain
        ? ["contention" as const]
        : machine > 0
        ? [c, "contention" as const]
        : [c]
    );
  const words = { pass: "passed", fail: "failed", inconclusive: "inconclusive" }[decision];
  const where = listed.length
    ? `: at ${listed.slice(0, 5).join(", ")}${listed.length > 5 ? ", …" : ""}`
    : "";
  let message = `${words}: ${total} stall${total === 1 ? "" : "s"} in ` +
    `${formatDurationMs(measuredMs)} against ${
      slo.bound === 0 ? "none allowed" : `${slo.operator} ${slo.bound}`
    }${where}`;
  const reasons = causes.map((c) =>
    c === "sampling"
      ? `${formatDurationMs(measuredMs)} of measured stages is too short to show stalls: ` +
        `run ${MIN_TREND_INTERVALS}s or more`
      : c === "generator"
      ? `${total - certain - machine} of them could be the generator's own pauses (up to ` +
        `${formatDurationMs(pauseUs / 1000)}): a quieter or bigger runner decides`
      : c === "contention"
      ? `${machine} of them could be the machine's: the service waited for a CPU in that ` +
        "second as long as the stall's excess: rerun on a quieter runner (" +
        `${confirmReruns(result.run)})`
      : shortfall!
  );
  if (reasons.length) message += `; ${reasons.join("; ")}`;
  return {
    ...base,
    status: decision,
    measured: total,
    bound: slo.bound,
    unit: "count",
    ...(causes.length ? { causes } : {}),
    message,
  };
}
