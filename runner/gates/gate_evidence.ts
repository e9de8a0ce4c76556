/**
 * The evidence any gate (an SLO or a regression check) weighs for one metric over one group of
 * requests: the measured value, its confidence interval, what the generator may have added, and
 * whether the generator held its schedule. Pure: reads the result document only.
 *
 * @module
 */
import type { SloMetric } from "../plan/mod.ts";
import type { Histogram } from "../hdr/mod.ts";
import { completedPerSec, errorTotal } from "../model/mod.ts";
import type { RequestCounts, RunResult } from "../model/mod.ts";
import { binomialInterval } from "./stats/mod.ts";
import type { GateEvidence } from "./decision_rule.ts";
import { latenessLimitUs } from "../result/mod.ts";
import { scheduleShortfall } from "./generator_allowance.ts";
import { latencyEvidence } from "./latency_evidence.ts";
import type { ContendedInterval } from "./contention_tail.ts";

/** A group of requests: merged histogram of successful responses, counts and length. */
export interface RequestGroup {
  response: Histogram;
  counts: RequestCounts;
  durationMs: number;
  /**
   * The group's intervals in which the machine's contention could have delayed requests
   * (contention_tail.ts `contendedIntervals`), read only when a latency figure would fail without
   * them; absent: contention explains nothing.
   */
  contended?: () => readonly ContendedInterval[];
}

/** The evidence and the figures a verdict shows. */
export interface MetricEvidence {
  evidence: GateEvidence;
  /** The point estimate; Infinity when failed requests decide a latency figure. */
  measured: number;
  /** Requests judged (latency: successful plus failed; error rate: completed). */
  n: number;
  /** Failed requests counted as beyond every bound by a latency figure. */
  failures: number;
}

/**
 * Evidence for `metric` against `bound` (its unit: us, a fraction, per second).
 */
export function metricEvidence(
  metric: SloMetric,
  group: RequestGroup,
  result: Pick<RunResult, "version" | "health" | "run">,
  bound: number,
  alpha = 0.05,
): MetricEvidence {
  const completed = group.counts.completed;
  if (metric.kind === "error_rate") {
    const k = errorTotal(group.counts);
    const ci = binomialInterval(k, completed, alpha);
    // `error_rate <= 0%` asks that this run had no error: the count decides, not an interval.
    const exact = bound === 0;
    return {
      evidence: {
        low: exact ? k / Math.max(1, completed) : ci.low,
        high: exact ? k / Math.max(1, completed) : ci.high,
        generatorAllowance: 0,
        scheduleShortfall: scheduleShortfall(result, latenessLimitUs()),
      },
      measured: completed ? k / completed : 0,
      n: completed,
      failures: 0,
    };
  }
  if (metric.kind === "throughput") {
    const measured = completedPerSec(group.counts, group.durationMs);
    const shortfall = scheduleShortfall(result, latenessLimitUs());
    // A generator that fell behind may itself have sent less than planned: that much of a
    // throughput shortfall can be its own. One on schedule cannot: sends that waited for a busy
    // connection are the server's pace.
    const h = result.health;
    const unsent = shortfall === undefined ? 0 : Math.max(0, h.intendedPerSec - h.achievedPerSec);
    return {
      evidence: {
        low: measured,
        high: measured,
        generatorAllowance: unsent,
        scheduleShortfall: shortfall,
      },
      measured,
      n: completed,
      failures: 0,
    };
  }
  // Results before format 3 recorded failed requests' elapsed time in the histograms.
  const failures = result.version >= 3 ? errorTotal(group.counts) : 0;
  const own = latencyEvidence(metric, group.response, failures, result.health, alpha);
  // Intervals are decoded only for a figure that would not pass without the machine's
  // contention: one beyond the bound, or one whose interval reaches it.
  const e = group.contended && own.highUs >= bound
    ? latencyEvidence(metric, group.response, failures, result.health, alpha, {
      intervals: group.contended(),
      boundUs: bound,
    })
    : own;
  const run = result.health.contention;
  return {
    evidence: {
      low: e.lowUs,
      high: e.highUs,
      generatorAllowance: e.allowanceUs,
      scheduleShortfall: scheduleShortfall(result, latenessLimitUs(bound)),
      ...(e.contention && run
        ? {
          contention: {
            low: e.contention.lowUs,
            high: e.contention.highUs,
            takenOff: e.contention.takenOff,
            run,
          },
        }
        : {}),
    },
    measured: e.measuredUs,
    n: e.n,
    failures,
  };
}
