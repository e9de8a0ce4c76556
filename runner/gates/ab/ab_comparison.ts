/**
 * The A/B comparison's checks, built from the rounds' run results: for every measured stage (and
 * each label, when there are several) and every metric of the plan's regression floors (the
 * defaults otherwise), base's and head's figure in each round, judged together by the paired
 * decision (paired_comparison.ts). A round in which either run was tool-limited or stopped early is
 * left out (its two runs do not compare); a tail percentile that some run holds too few requests
 * beyond is not judged when it is a default metric, and is inconclusive when the plan names it.
 *
 * @module
 */
import type { AbComparison } from "../../model/mod.ts";
import type { RunResult } from "../../model/mod.ts";
import {
  DEFAULT_REGRESSION_FLOORS,
  isTailMetric,
  metricValue,
  percentileOf,
  type RegressionMetric,
  sampleOf,
} from "../regression/mod.ts";
import {
  formatChange,
  formatChangeRange,
  formatMetric,
  measuredFloor,
  median,
} from "../../result/mod.ts";
import { type FloorSource, judgePaired, type PairedCheck } from "./paired_comparison.ts";
import { isSufficient, requiredRequests } from "../stats/mod.ts";

/** One round's two results. */
export interface RoundPair {
  base: RunResult;
  head: RunResult;
}

/**
 * Requests beyond a *default* tail percentile (above p50) every A/B run must hold for it to be
 * compared (p99:
 * 10,000 requests a run). With fewer, its paired change swings wider than its floor: beside a busy
 * neighbour, p99 of 2,000-request rounds moved by 32% (standard deviation of log head/base, base =
 * head) and 12 rounds of them left identical builds undecided 84% of the time; rounds of 10,000 moved
 * by 10% (docs/decisions/ab_defaults.md). A percentile the plan names is compared
 * whenever it has the 10 beyond it any regression check needs.
 */
export const AB_DEFAULT_MIN_TAIL_SAMPLES = 100;

/**
 * The most the rounds' spread may raise a tail's default floor to (0.5: 50%): rounds that cannot
 * rule out a tail 1.5 times base's decide nothing a team would act on, so the check is undecided.
 */
export const TAIL_SPREAD_CAP = 0.5;

/**
 * The metrics `tailgate ab` compares when the plan names no `regression:`, each with its documented
 * minimum floor: the change that counts however tight the rounds. Each check's floor is raised to
 * what its rounds' spread supports (paired_comparison.ts), so a metric as steady as a p50 (0.5% from
 * round to round beside a busy neighbour, docs/decisions/ab_defaults.md) is judged at a few percent
 * (CodSpeed gates at 2%), and a tail at what its rounds can tell. Error rate in points.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { AB_MIN_FLOORS } from "./ab_comparison.ts";
 * assert.equal(AB_MIN_FLOORS.p50, 0.02);
 * ```
 */
export const AB_MIN_FLOORS: Readonly<Partial<Record<RegressionMetric, number>>> = {
  p50: 0.02,
  p99: 0.05,
  "p99.9": 0.10,
  error_rate: 0.001,
  throughput: 0.02,
};

/**
 * The comparison of `rounds` (in round order), one entry per check. With `planNamedFloors` the
 * plan's floors are used as they are; else `floors` are minimums, raised to what each check's
 * rounds support. A tail metric's floor is never below the runs' measured floor there.
 */
export function compareRounds(
  rounds: readonly RoundPair[],
  floors: Partial<Record<RegressionMetric, number>> = AB_MIN_FLOORS,
  confidence = 0.999,
  planNamedFloors = false,
): AbComparison[] {
  const sound = rounds.filter((r) =>
    [r.base, r.head].every((x) => x.run.complete && !x.health.toolLimited)
  );
  const first = rounds[0]?.head;
  if (first === undefined) return [];
  type Pending = Omit<AbComparison, "change" | "ci95" | "p" | "confidence" | "status" | "message">;
  const pending: Array<Pending & { check: PairedCheck; short?: string }> = [];
  for (const stage of first.stages.filter((s) => !s.warmup)) {
    const labels = stage.labels.length > 1
      ? [undefined, ...stage.labels.map((l) => l.label)]
      : [undefined];
    for (const label of labels) {
      const sampleIn = (r: RunResult) => {
        const s = r.stages.find((x) => x.index === stage.index);
        const group = label === undefined ? s : s?.labels.find((l) => l.label === label);
        return group === undefined || s === undefined ? undefined : sampleOf(group, s.durationMs);
      };
      const pairRuns = sound.filter((r) => sampleIn(r.base) && sampleIn(r.head));
      const pairs = pairRuns.map((r) => ({ b: sampleIn(r.base)!, h: sampleIn(r.head)! }));
      for (const [metric, floor] of Object.entries(floors) as [RegressionMetric, number][]) {
        const q = percentileOf(metric);
        const thin = q === undefined
          ? undefined
          : pairs.flatMap(({ b, h }) => [b, h]).find((s) =>
            !isSufficient(s.response.totalCount, q)
          );
        if (thin !== undefined && !planNamedFloors) continue;
        // A default tail metric is compared only when every run holds enough beyond it to be
        // steadier than the floor (AB_DEFAULT_MIN_TAIL_SAMPLES); the plan may name it anyway.
        const steady = q === undefined || q <= 50 || planNamedFloors ||
          pairs.every(({ b, h }) =>
            [b, h].every((s) => isSufficient(s.response.totalCount, q, AB_DEFAULT_MIN_TAIL_SAMPLES))
          );
        if (!steady) continue;
        const unit = metric === "error_rate"
          ? "fraction"
          : metric === "throughput"
          ? "per_sec"
          : "us";
        pending.push({
          name: `${metric} head vs base: ${stage.name}${label === undefined ? "" : ` [${label}]`}`,
          stageIndex: stage.index,
          stageName: stage.name,
          ...(label === undefined ? {} : { label }),
          metric,
          unit,
          base: pairs.map(({ b }) => metricValue(metric, b)),
          head: pairs.map(({ h }) => metricValue(metric, h)),
          floor,
          check: {
            base: pairs.map(({ b }) => metricValue(metric, b)),
            head: pairs.map(({ h }) => metricValue(metric, h)),
            scale: metric === "error_rate" ? "difference" : "ratio",
            higherIsWorse: metric !== "throughput",
            floor,
            // The spread may raise a default floor up to the history gate's floor, no further;
            // a tail's up to TAIL_SPREAD_CAP, so identical builds' p99 is decided beside a busy
            // neighbour too (a paired p99 swings ±30-50% a round there).
            ...(planNamedFloors ? {} : {
              floorFromSpread: true,
              spreadCap: Math.max(
                floor,
                isTailMetric(metric)
                  ? TAIL_SPREAD_CAP
                  : DEFAULT_REGRESSION_FLOORS[metric] ?? Infinity,
              ),
            }),
            ...(isTailMetric(metric)
              ? {
                absoluteFloor: median(
                  pairRuns.flatMap((r) => [r.base, r.head]).map((r) => tailFloorUs(r, metric)),
                ),
              }
              : {}),
          },
          ...(thin === undefined ? {} : {
            short:
              `p${q} needs 10 requests beyond it in every run; one had ${thin.response.totalCount} ` +
              `in all: run the stage for at least ${requiredRequests(q!)} requests`,
          }),
        });
      }
    }
  }
  const outcomes = judgePaired(pending.map((p) => p.check), confidence);
  const left = rounds.length - sound.length;
  return pending.map(({ check, short, ...p }, i) => {
    const o = outcomes[i];
    const status = short ? "inconclusive" : o.status;
    const points = p.metric === "error_rate";
    const figures = p.base.length
      ? `base ${formatMetric(median(p.base), p.unit)}, head ${
        formatMetric(median(p.head), p.unit)
      } ` +
        `(medians of ${p.base.length} rounds)`
      : "no round to compare";
    const words = status === "fail" ? "regression" : status === "pass" ? "ok" : "inconclusive";
    const interval = formatChangeRange(o.ci95[0], o.ci95[1], points);
    const floor = `floor ${floorText(o.floor, points)}${
      floorWhy(o.floorSource, { ...p, check }, points)
    }`;
    const change = interval === "-"
      ? `no interval (${floor})`
      : `head ${formatChange(o.change, points)} (95% interval ${interval}; ${floor})`;
    const message = `${words}: ${change}; ${figures}` +
      (short ? `; ${short}` : o.reason ? `; ${o.reason}` : "") +
      (left > 0
        ? `; ${left} round${left === 1 ? "" : "s"} left out (tool-limited or stopped)`
        : "");
    return {
      ...p,
      floor: o.floor,
      ...(o.floorSource === "plan" ? {} : { floorSource: o.floorSource }),
      change: o.change,
      ci95: o.ci95,
      p: o.p,
      confidence: o.confidence,
      status,
      message,
    };
  });
}

/** The runs' measured floor at a tail metric (µs): the generator's own pauses there. */
function tailFloorUs(r: RunResult, metric: RegressionMetric): number {
  const q = percentileOf(metric);
  if (q !== undefined) return measuredFloor(r.health, q).floorUs;
  return Math.max(r.health.engineStall?.maxUs ?? 0, r.health.platformHiccup?.maxUs ?? 0);
}

/** Why a floor is what it is, when the plan did not set it. */
function floorWhy(
  source: FloorSource,
  p: { floor: number; check: PairedCheck; metric: string },
  points: boolean,
): string {
  const minimum = `${p.metric}'s minimum ${floorText(p.floor, points)}`;
  switch (source) {
    case "plan":
      return "";
    case "minimum":
      return ` (${p.metric}'s minimum; the rounds' spread supports less)`;
    case "spread":
      return ` (what the rounds' spread supports; ${minimum})`;
    case "measured":
      return ` (the runs' measured floor, ${
        formatMetric(p.check.absoluteFloor!, "us")
      } at ${p.metric}, over base's median: a smaller tail change is the tool's own pauses)`;
  }
}

/** A floor as the plan wrote it: "5%", or "0.1 points" for the error rate. */
function floorText(floor: number, points: boolean): string {
  return points ? `${+(floor * 100).toFixed(2)} points` : `${+(floor * 100).toFixed(1)}%`;
}
