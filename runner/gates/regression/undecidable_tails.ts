/**
 * Tail percentiles a regression check cannot judge on a plan, said before anything runs. The
 * history gate (regression.ts) and the A/B comparison (ab_comparison.ts) judge a percentile only
 * when every run holds at least 10 requests beyond it (a default one in the A/B comparison, 100:
 * `defaultMinTail`); a default metric with fewer is skipped, one the plan names under
 * `regression:` is inconclusive. `tailgate check` and `tailgate ab` say so from
 * the plan's planned request counts (a warning for a metric the plan names, a note for a default
 * one it skips), per measured stage (and per label, when there are several),
 * with the stage length that would decide them: one warning per stage, one more for its labels.
 *
 * @module
 */
import { plannedRequests } from "../../plan/mod.ts";
import type { PlanIssue, PlanStage, ResolvedPlan } from "../../plan/mod.ts";
import { formatRatePerSec } from "../../plan/mod.ts";
import { DEFAULT_MIN_TAIL_SAMPLES, stagesForSlo } from "../../plan/mod.ts";
import {
  DEFAULT_REGRESSION_FLOORS,
  percentileOf,
  type RegressionMetric,
} from "./regression_metrics.ts";
import { isSufficient, requiredRequests } from "../stats/mod.ts";

/**
 * A warning for each measured stage (and one for its labels) on which one run plans too few
 * requests for a tail percentile of the regression floors (the plan's, else the defaults).
 * `text` (the plan's) places the caret under the stage.
 */
export function undecidableTails(
  plan: ResolvedPlan,
  text = "",
  options: {
    defaultMinTail?: number;
    /**
     * Of the default metrics (the plan names none), only those an SLO of the plan judges on the
     * stage (a percentile at or beyond it): what `tailgate check` says plan by plan, the rest
     * once for all ({@linkcode skippedDefaultTails}).
     */
    judgedOnly?: boolean;
  } = {},
): PlanIssue[] {
  const named = plan.regression !== undefined;
  // `tailgate ab` asks more of a default tail metric (ab_comparison.ts); a named one needs 10.
  const minTail = named
    ? DEFAULT_MIN_TAIL_SAMPLES
    : options.defaultMinTail ?? DEFAULT_MIN_TAIL_SAMPLES;
  const floors = (plan.regression ?? DEFAULT_REGRESSION_FLOORS) as Partial<
    Record<RegressionMetric, number>
  >;
  const tails = (Object.keys(floors) as RegressionMetric[]).flatMap((m) => {
    const q = percentileOf(m);
    return q === undefined ? [] : [{ metric: m, q }];
  });
  if (tails.length === 0) return [];
  const totalWeight = plan.requests.reduce((sum, r) => sum + r.weight, 0);
  const labels = plan.requests.length > 1
    ? plan.requests.map((r) => ({ label: r.label, share: r.weight / totalWeight }))
    : [];
  const lines = text.split(/\r?\n/);
  const issues: PlanIssue[] = [];
  for (const stage of plan.load.stages.filter((s) => !s.warmup)) {
    const planned = plannedRequests(stage);
    const said = options.judgedOnly && !named
      ? tails.filter((t) => sloJudges(plan, stage, t.q))
      : tails;
    const short = (share: number) =>
      said.filter((t) => !isSufficient(Math.floor(planned * share), t.q, tailOf(t.q, minTail)));
    const whole = short(1);
    if (whole.length > 0) {
      issues.push(issue(plan, stage, lines, whole, planned, 1, named, minTail));
    }
    const undecided = labels.map((l) => ({ ...l, tails: short(l.share) }))
      .filter((l) => l.tails.some((t) => !whole.includes(t)));
    if (undecided.length === 0) continue;
    const rarest = undecided.reduce((a, b) => (b.share < a.share ? b : a));
    const metrics = tails.filter((t) =>
      !whole.includes(t) && undecided.some((l) => l.tails.includes(t))
    );
    const names = undecided.slice(0, 3).map((l) => `"${l.label}"`).join(", ") +
      (undecided.length > 3 ? ` and ${undecided.length - 3} more` : "");
    issues.push(
      issue(plan, stage, lines, metrics, planned, rarest.share, named, minTail, {
        text: `for ${undecided.length === 1 ? "label" : "labels"} ${names}`,
        rarest: rarest.label,
      }),
    );
  }
  return issues;
}

/**
 * The default regression metrics (the plan names none under `regression`) that one run of the
 * plan is too short for on some measured stage, and that no SLO of the plan judges there: the
 * regression check skips them without a word from the plan. `tailgate check` says them once for
 * all plans, not at each stage of each.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parsePlanText } from "../../plan/load_plan.ts";
 * import { skippedDefaultTails } from "./undecidable_tails.ts";
 * const { plan } = parsePlanText(
 *   "name: x\ntarget: http://127.0.0.1:8080\nrequests: [{ path: / }]\n" +
 *     "load: { stages: [{ rate: 100/s, duration: 30s }] }\n",
 * );
 * assert.deepEqual(skippedDefaultTails(plan!), ["p99.9"]);
 * ```
 */
export function skippedDefaultTails(plan: ResolvedPlan): RegressionMetric[] {
  if (plan.regression !== undefined) return [];
  const metrics = (Object.keys(DEFAULT_REGRESSION_FLOORS) as RegressionMetric[]).flatMap((m) => {
    const q = percentileOf(m);
    return q === undefined ? [] : [{ metric: m, q }];
  });
  return metrics.filter((t) =>
    plan.load.stages.some((stage) =>
      !stage.warmup && !sloJudges(plan, stage, t.q) &&
      !isSufficient(Math.floor(plannedRequests(stage)), t.q, tailOf(t.q, DEFAULT_MIN_TAIL_SAMPLES))
    )
  ).map((t) => t.metric);
}

/** Whether a percentile SLO of the plan at or beyond `q` judges `stage` (then its tail matters). */
function sloJudges(plan: ResolvedPlan, stage: PlanStage, q: number): boolean {
  return plan.slos.some((slo) =>
    slo.metric.kind === "percentile" && slo.metric.percentile >= q &&
    stagesForSlo(slo, plan.load.stages).includes(stage)
  );
}

function issue(
  plan: ResolvedPlan,
  stage: PlanStage,
  lines: readonly string[],
  tails: ReadonlyArray<{ metric: RegressionMetric; q: number }>,
  planned: number,
  share: number,
  named: boolean,
  minTail: number,
  labels?: { text: string; rarest: string },
): PlanIssue {
  const count = (n: number) => Math.floor(n).toLocaleString("en-US");
  const metrics = tails.map((t) => t.metric);
  const list = metrics.length === 1
    ? metrics[0]
    : `${metrics.slice(0, -1).join(", ")} and ${metrics.at(-1)}`;
  const needs = tails.map((t, i) =>
    `${i === 0 ? `${t.metric} needs ` : `${t.metric} `}${
      count(requiredRequests(t.q, tailOf(t.q, minTail)))
    }`
  ).join(", ");
  const one = tails.length === 1;
  const where = labels === undefined ? "there" : `for "${labels.rarest}"`;
  const top = Math.max(...tails.map((t) => t.q));
  const most = requiredRequests(top, tailOf(top, minTail));
  const perSec = planned * share / (stage.durationMs / 1000);
  const seconds = Math.ceil(most / perSec);
  const source = lines[stage.line - 1] ?? "";
  const col = source.length - source.trimStart().length + 1;
  return {
    // A metric the plan names is a check that will stay undecided: a warning. A default one
    // tailgate skips of its own accord: a note, nothing for the plan to fix.
    severity: named ? "warning" : "note",
    file: plan.file,
    path: `load.stages[${stage.index}]`,
    line: stage.line,
    col,
    length: Math.max(1, source.trimEnd().length - col + 1),
    message:
      `${list} cannot be judged on stage "${stage.name}"${
        labels === undefined ? "" : ` ${labels.text}`
      } by a regression check (against the history, or in \`tailgate ab\`): one run plans about ` +
      `${count(planned * share)} requests ${where}, and ${needs} (${minTail} beyond ${
        one ? "it" : "each"
      }); ` +
      (named
        ? `named under \`regression\`, ${one ? "it" : "they"} will be inconclusive (a warning)`
        : `tailgate skips ${one ? "this default metric" : "these default metrics"} there`),
    hint:
      `run the stage for at least ${lengthText(seconds)} at ${
        stage.kind === "ramp" ? "its average rate, " : ""
      }${formatRatePerSec(planned / (stage.durationMs / 1000))} (each run, or each round of ` +
      `\`tailgate ab\`) to decide ${one ? "it" : "them"}` +
      (named ? `, or drop ${one ? "it" : "them"} from \`regression\`` : ""),
  };
}

/** A stage length as a plan would write it, rounded up: `34s`, `17m`, `11h`. */
function lengthText(seconds: number): string {
  if (seconds < 120) return `${seconds}s`;
  if (seconds < 7_200) return `${Math.ceil(seconds / 60)}m`;
  return `${Math.ceil(seconds / 3_600)}h`;
}

/** The requests beyond percentile `q` a check needs: `minTail` for a tail one, 10 for the median. */
function tailOf(q: number, minTail: number): number {
  return q > 50 ? minTail : DEFAULT_MIN_TAIL_SAMPLES;
}
