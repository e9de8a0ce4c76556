/**
 * The regression gate: does this run's stage (and label) do worse than its stored history? Judged
 * on run-level values, one per run (p50, p99, p99.9, max, error rate, throughput), never with
 * per-request significance tests: requests within a run are autocorrelated, and over a million
 * samples such tests call every difference significant. docs/gates.md gives the reasoning.
 *
 * @module
 */
import { seenValues } from "./seen_values.ts";
import { stagesMatch } from "../../history/mod.ts";
import type { SloMetric } from "../../plan/mod.ts";
import { createHistogram, type Histogram } from "../../hdr/mod.ts";
import type { RunResult, Verdict } from "../../model/mod.ts";
import type { DecodedRuns } from "../../history/mod.ts";
import { applyDecisionRule } from "../decision_rule.ts";
import { formatChange, formatMetric, median, moreWorkers } from "../../result/mod.ts";
import { metricEvidence } from "../gate_evidence.ts";
import {
  BASELINE_WINDOW_RUNS,
  baselineRunsNeeded,
  DEFAULT_REGRESSION_FLOORS,
  metricValue,
  percentileOf,
  type RegressionMetric,
  type Sample,
  sampleOf,
} from "./regression_metrics.ts";
import { contendedIntervals, contentionReason } from "../contention_tail.ts";
import {
  exceedanceP,
  historyModel,
  holmLevels,
  isSufficient,
  isUsefulBound,
  ksDistance,
  predictionBounds,
  requiredRequests,
  USEFUL_BOUND_RATIO,
} from "../stats/mod.ts";

/** Options of the regression gate. */
export interface RegressionOptions {
  /**
   * Metric → floor (relative change; absolute for error_rate). Defaults above. A percentile the
   * plan names here is `inconclusive` when the sample count cannot support it; a default one is
   * then not judged at all (the plan did not ask for it, so it must not fail CI).
   */
  floors?: Partial<Record<RegressionMetric, number>>;
  minTailSamples?: number;
  /** History runs used at most (the last ones). */
  maxRuns?: number;
  /**
   * The runs the history's window holds when full (default {@linkcode BASELINE_WINDOW_RUNS}): a
   * full window too scattered to bound the next run says the runner is too noisy for a history
   * gate, instead of waiting for more runs.
   */
  windowRuns?: number;
  /**
   * Let the floors alone decide however few stored runs there are: for two results a user puts
   * side by side (`tailgate compare`), where no runner's history is being learned. Off for the
   * history gate, where a metric needs {@linkcode baselineRunsNeeded} runs before it can fail.
   */
  floorsDecide?: boolean;
  /**
   * One minus the chance a run with no regression shows one anywhere (default 0.999): the
   * family-wise level Holm's step-down holds over all of the run's checks.
   */
  confidence?: number;
}

/**
 * Judges every non-warmup stage (and each label when there are several) against the history's
 * runs, read and decoded once by runner/history (`decodeRuns`).
 */
export function evaluateRegression(
  result: RunResult,
  decoded: DecodedRuns,
  options: RegressionOptions = {},
): Verdict[] {
  const floors = options.floors ?? DEFAULT_REGRESSION_FLOORS;
  const baseline = decoded.file;
  const runs = baseline.runs.slice(-(options.maxRuns ?? 30));
  const checks: Check[] = [];
  for (const stage of result.stages.filter((s) => !s.warmup)) {
    const history = runs.map((r) => r.stages.find((b) => stagesMatch(b, stage)));
    const groups = stage.labels.length > 1
      ? [undefined, ...stage.labels.map((l) => l.label)]
      : [undefined];
    for (const label of groups) {
      const where = `${stage.name}${label === undefined ? "" : ` [${label}]`}`;
      const current: Sample = {
        ...sampleOf(
          label === undefined ? stage : stage.labels.find((l) => l.label === label)!,
          stage.durationMs,
        ),
        contended: () => contendedIntervals(result, [stage.index], label),
      };
      const past = history.flatMap((h) => {
        const group = h === undefined
          ? undefined
          : label === undefined
          ? h
          : h.labels.find((l) => l.label === label);
        if (group === undefined) return [];
        const response = decoded.histogram(group.response);
        return [{ response, counts: group.counts, durationMs: h!.durationMs }];
      });
      if (past.length === 0) continue; // a new stage or label: nothing to compare with
      const ks = ksDistance(current.response, merged(past.map((p) => p.response)));
      for (const [metric, floor] of Object.entries(floors) as [RegressionMetric, number][]) {
        const q = percentileOf(metric);
        const minTail = options.minTailSamples ?? 10;
        if (
          options.floors === undefined && q !== undefined &&
          [current, ...past].some((s) => !isSufficient(s.response.totalCount, q, minTail))
        ) continue; // a default metric too far in the tail for this many requests
        // A stored run in which no request was answered has no latency to compare with.
        const latency = q !== undefined || metric === "max" || metric === "mean";
        const compared = latency ? past.filter((s) => s.response.totalCount > 0) : past;
        if (compared.length === 0) continue;
        checks.push({
          metric,
          floor,
          current,
          past: compared,
          ctx: {
            name: `${metric} vs baseline: ${where}`,
            stageIndex: stage.index,
            label,
            ks,
            result,
            minTail: options.minTailSamples ?? 10,
            windowRuns: options.windowRuns ?? BASELINE_WINDOW_RUNS,
            floorsDecide: options.floorsDecide ?? false,
            seen: seenValues(baseline.history ?? [], stage, label, metric, minTail),
          },
        });
      }
    }
  }
  const levels = holmLevels(checks.map((c) => exceedance(c)), 1 - (options.confidence ?? 0.999));
  return checks.map((c, i) =>
    judgeMetric(c.metric, c.floor, c.current, c.past, { ...c.ctx, ...levels[i] })
  );
}

/** One (stage, label, metric) pair to judge. */
interface Check {
  metric: RegressionMetric;
  floor: number;
  current: Sample;
  past: Sample[];
  ctx: Omit<Context, "confidence" | "rejected" | "checks">;
}

/**
 * The chance that the history's noise alone gives a value as bad as this run's, for the checks
 * the prediction bound judges (3 or more past runs; not the error rate, judged by its floor).
 */
function exceedance(c: Check): number | undefined {
  if (c.metric === "error_rate") return undefined;
  const model = historyModel(c.past.map((s) => Math.max(metricValue(c.metric, s), 1e-9)));
  if (model === undefined) return undefined;
  const measured = metricEvidence(sloMetricOf(c.metric), c.current, c.ctx.result, 0).measured;
  return exceedanceP(model, measured, c.metric !== "throughput");
}

interface Context {
  name: string;
  stageIndex: number;
  label: string | undefined;
  ks: number;
  /** The run judged: its version and tool health decide how far its own figures can be trusted. */
  result: Pick<RunResult, "version" | "health" | "run">;
  minTail: number;
  /** The runs a full window holds. */
  windowRuns: number;
  /** The floors decide however few runs there are (`tailgate compare`). */
  floorsDecide: boolean;
  /** The metric's values over the long history's newest baseline runs (seen_values.ts). */
  seen: readonly number[];
  /** The prediction bound's confidence: Holm's level for this check. */
  confidence: number;
  /** Whether Holm's step-down rejected "no regression" for this check (true when not tested). */
  rejected: boolean;
  /** Checks in the family Holm controlled. */
  checks: number;
}

function judgeMetric(
  metric: RegressionMetric,
  floor: number,
  current: Sample,
  past: Sample[],
  ctx: Context,
): Verdict {
  const base: Verdict = {
    kind: "regression",
    name: ctx.name,
    status: "pass",
    stageIndexes: [ctx.stageIndex],
    ...(ctx.label === undefined ? {} : { label: ctx.label }),
    metric,
    ksDistance: ctx.ks,
    message: "",
  };
  const q = percentileOf(metric);
  if (q !== undefined) {
    const short = [current, ...past].find((s) =>
      !isSufficient(s.response.totalCount, q, ctx.minTail)
    );
    if (short !== undefined) {
      return {
        ...base,
        status: "inconclusive",
        message:
          `p${q} needs ${ctx.minTail} requests beyond it in this run and in every baseline run; ` +
          `one had ${short.response.totalCount} requests in all: run the stage for at least ` +
          `${requiredRequests(q, ctx.minTail)} requests (\`tailgate check\` says how long)`,
      };
    }
  }
  const value = (s: Sample) => metricValue(metric, s);
  // This run's own figure, failed requests counted beyond every latency (format 3 on).
  const sloMetric = sloMetricOf(metric);
  const history = past.map(value);
  const higherIsWorse = metric !== "throughput";
  // The robust centre: one outlier run cannot drag it (prediction_bound.ts).
  const reference = Math.exp(median(history.map((v) => Math.log(Math.max(v, 1e-9)))));
  const unit = metric === "error_rate"
    ? "fraction" as const
    : metric === "throughput"
    ? "per_sec" as const
    : "us" as const;
  const show = (v: number) => formatMetric(v, unit);
  const bounds = metric === "error_rate"
    ? undefined
    : predictionBounds(history.map((v) => Math.max(v, 1e-9)), ctx.confidence);
  // A regression needs both: a change beyond the floor and a value beyond the prediction bound.
  // The verdict's bound is the stricter of the two limits, so "value vs bound" and the margin
  // read as an SLO's do.
  const floorLimit = metric === "error_rate"
    ? mean(history) + floor
    : reference * (higherIsWorse ? 1 + floor : 1 - floor);
  // The figure itself does not depend on the limit it is weighed against.
  const figure = metricEvidence(sloMetric, current, ctx.result, floorLimit).measured;
  const beyondBound = bounds !== undefined && ctx.rejected &&
    (higherIsWorse ? figure > bounds.upper : figure < bounds.lower);
  // Too few stored runs to know this metric's spread on this runner: no change can fail it yet.
  const needed = ctx.floorsDecide ? 1 : baselineRunsNeeded(metric);
  const tooFew = past.length < needed;
  // A history too short or too scattered bounds the next run only far beyond its centre (120 h
  // for a max from 3 runs): no limit to show, and no regression within it to rule out.
  const wide = bounds !== undefined && !isUsefulBound(bounds, reference, higherIsWorse);
  const bounded = bounds !== undefined && !tooFew && (!wide || beyondBound);
  const bound = !bounded
    ? floorLimit
    : higherIsWorse
    ? Math.max(floorLimit, bounds!.upper)
    : Math.min(floorLimit, bounds!.lower);
  const { evidence, measured } = metricEvidence(sloMetric, current, ctx.result, bound);
  // Error rates are often 0: their floor is absolute, and the bound on log values does not apply.
  const change = metric === "error_rate"
    ? measured - mean(history)
    : relative(measured, reference, higherIsWorse);
  const regressed = change > floor && !tooFew &&
    (metric === "error_rate" || beyondBound || (ctx.floorsDecide && bounds === undefined));
  // Too scattered to bound, but no further out than the history's own runs reached: what this
  // runner has already produced unchanged is no evidence of a change (a new run lies beyond the
  // highest of n exchangeable runs 1 time in n + 1).
  const seen = higherIsWorse
    ? Math.max(...history, ...ctx.seen)
    : Math.min(...history, ...ctx.seen);
  const seenRuns = Math.max(history.length, ctx.seen.length);
  const withinSeen = !tooFew && wide && !beyondBound &&
    (higherIsWorse ? figure <= seen : figure >= seen);
  // Beyond the floor, but the history cannot say whether that is more than its own noise.
  const unbounded = !regressed && change > floor && (tooFew || (wide && !withinSeen));
  // A regression must also hold for this run's whole confidence interval, less what the
  // generator may have added and what the machine's contention could explain (the one decision
  // rule); the point estimate alone makes it inconclusive. No regression is a pass only when the
  // generator held its schedule.
  const rule = applyDecisionRule(higherIsWorse ? "<=" : ">=", bound, evidence);
  const status = regressed
    ? rule.decision === "fail" ? "fail" as const : "inconclusive" as const
    : evidence.scheduleShortfall === undefined && !unbounded
    ? "pass" as const
    : "inconclusive" as const;
  const shortfall = evidence.scheduleShortfall ? `; ${evidence.scheduleShortfall}` : "";
  const why = status !== "inconclusive" || unbounded
    ? ""
    : regressed
    ? `; not beyond doubt: ${
      rule.causes.includes("contention")
        ? contentionReason(evidence.contention!, show, ctx.result.run)
        : rule.causes.includes("generator")
        ? `the generator's own delays (up to ${
          show(evidence.generatorAllowance)
        }) could explain it: rerun on a quieter runner, or with ${moreWorkers(ctx.result.run)}`
        : "this run's 95% interval reaches back within the limit: a longer run narrows it"
    }${shortfall}`
    : shortfall;
  const runs = (n: number) => `${n} baseline run${n === 1 ? "" : "s"}`;
  const method = tooFew
    ? `${runs(past.length)}: the floor alone limits until ${needed} are stored`
    : bounds === undefined
    ? `${runs(past.length)}: relative tolerance alone`
    : !bounded
    ? `not enough history yet (${runs(bounds.n)}) for a prediction bound: the floor alone limits`
    : `prediction bound ${show(higherIsWorse ? bounds.upper : bounds.lower)} from ${bounds.n} ` +
      `runs at ${+(ctx.confidence * 100).toPrecision(6)}% (Holm over ${ctx.checks} checks: ` +
      `one false alarm per run at most 0.1% of the time)${
        ctx.rejected ? "" : "; not tested further: a check with a smaller p held"
      }`;
  // toPrecision drops float noise: a 7% floor is 0.07, and 0.07 × 100 is 7.000000000000001.
  const floorShown = `${+(floor * 100).toPrecision(6)}${metric === "error_rate" ? " points" : "%"}`;
  const finite = Number.isFinite(measured);
  const figures = `${finite ? show(measured) : "failed requests"} against baseline ` +
    `${show(metric === "error_rate" ? mean(history) : reference)} (${
      formatChange(change, metric === "error_rate")
    }; floor ${floorShown}`;
  const causes = unbounded
    ? ["history" as const, ...(shortfall ? ["schedule" as const] : [])]
    : regressed && rule.causes.length > 0
    ? rule.causes
    : ["schedule" as const];
  const full = past.length >= ctx.windowRuns;
  const undecidedHistory = () =>
    tooFew
      ? `not enough history yet (${runs(past.length)}; ${metric} needs ${needed} to know its ` +
        `spread on this runner, ${needed - past.length} more): ${figures}) is beyond the floor, ` +
        `but cannot fail until then: a warning (the default branch's --update-baseline stores ` +
        `runs); KS distance ${ctx.ks.toFixed(3)}${shortfall}`
      : full
      ? `the runner is too noisy for a history gate on ${metric}: ${figures}) is beyond the ` +
        `floor, but the ${runs(bounds!.n)} of a full window vary too much to tell it from their ` +
        `noise (a prediction bound beyond ${USEFUL_BOUND_RATIO}× their centre), and more runs ` +
        "will not narrow it: compare head against base on one runner with `tailgate ab`, which " +
        `cancels the runner; KS distance ${ctx.ks.toFixed(3)}${shortfall}`
      : `not enough history yet (${runs(bounds!.n)}): ${figures}) is beyond the floor, but ` +
        `the stored runs vary too much to tell it from their noise (a prediction bound beyond ` +
        `${USEFUL_BOUND_RATIO}× their centre); it decides as more runs are stored ` +
        `(--update-baseline, up to ${ctx.windowRuns}); KS distance ${
          ctx.ks.toFixed(3)
        }${shortfall}`;
  return {
    ...base,
    status,
    ...(status === "inconclusive" ? { causes } : {}),
    ...(finite ? { measured } : { censored: true }),
    bound,
    unit,
    ...(finite
      ? { margin: bound > 0 ? (higherIsWorse ? bound - measured : measured - bound) / bound : 0 }
      : {}),
    ...(evidence.generatorAllowance > 0 ? { generatorAllowance: evidence.generatorAllowance } : {}),
    message: unbounded
      ? undecidedHistory()
      : !regressed && change > floor && withinSeen
      ? `no regression: ${figures}) is beyond the floor, but within what the last ${
        runs(seenRuns)
      } stored reached (${higherIsWorse ? "highest" : "lowest"} ${show(seen)}); they vary ` +
        `too much to tell a smaller change from their noise (a prediction bound beyond ` +
        `${USEFUL_BOUND_RATIO}× their centre): ${
          full
            ? `the runner is too noisy for a history gate on ${metric}; compare head against ` +
              "base on one runner with `tailgate ab`, which cancels the runner"
            : `it decides more as runs are stored (--update-baseline, up to ${ctx.windowRuns})`
        }; KS distance ${ctx.ks.toFixed(3)}${shortfall}`
      : `${regressed ? "regressed" : "no regression"}: ${figures}; ${method}; limit ${
        show(bound)
      }); KS distance ${ctx.ks.toFixed(3)}${why}`,
  };
}

function merged(histograms: Histogram[]): Histogram {
  const total = createHistogram();
  for (const h of histograms) total.add(h);
  return total;
}

function sloMetricOf(metric: RegressionMetric): SloMetric {
  const q = percentileOf(metric);
  return q !== undefined
    ? { kind: "percentile", percentile: q }
    : { kind: metric as "max" | "mean" | "error_rate" | "throughput" };
}

function mean(values: number[]): number {
  return values.reduce((a, b) => a + b, 0) / values.length;
}

/** Relative change in the worse direction: positive when worse. */
function relative(measured: number, reference: number, higherIsWorse: boolean): number {
  if (reference <= 0) return measured > 0 && higherIsWorse ? Infinity : 0;
  return higherIsWorse ? measured / reference - 1 : 1 - measured / reference;
}
