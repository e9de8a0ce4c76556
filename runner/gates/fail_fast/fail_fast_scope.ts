/**
 * What each SLO fail-fast can decide judges (fail_fast_watch.ts): its bound stages (`at <rate>`, or
 * every non-warmup stage), the requests of its label, how many of them the whole plan plans (every
 * shard's), and for a windowed SLO the seconds lying wholly within its stages. Pure.
 *
 * @module
 */
import type { ResolvedPlan, Slo } from "../../plan/mod.ts";
import { Schedule } from "../../schedule/mod.ts";
import { ageBeyondUs, decidedEarly } from "./certain_failure.ts";

/** One SLO as fail-fast judges it. */
export interface FailFastScope {
  slo: Slo;
  stages: number[];
  /** Indexes of the requests it judges (their labels). */
  labels: number[];
  /** The share of the plan's requests those are, and whether that is all of them. */
  share: number;
  everyLabel: boolean;
  /** How long (ms) a request is outstanding before it counts as beyond the bound. */
  ageMs: number;
  /** The whole plan's planned requests of its stages and labels (an upper bound for a label). */
  planned: number;
  /** Windowed: the seconds lying wholly within its stages, and the window's length in seconds. */
  seconds?: Set<number>;
  windowSeconds?: number;
  /** Windows (their first second) found certain in the previous report: judged again. */
  certainStarts: number[];
  /** The stages in words, for the reason. */
  where: string;
}

/**
 * The SLOs of `plan` the certain-failure rule decides, each with its scope.
 */
export function failFastScopes(plan: ResolvedPlan): FailFastScope[] {
  // A plan with journeys plans more requests than its arrivals (each journey's later steps) and
  // times journeys the live tally does not hold: its SLOs are judged at the end only.
  if (plan.journeys?.length) return [];
  const schedule = new Schedule({
    arrival: plan.load.arrival,
    seed: plan.load.seed,
    stages: plan.load.stages,
    weights: plan.requests.map((r) => r.weight),
  });
  const totalWeight = plan.requests.reduce((n, r) => n + r.weight, 0);
  return plan.slos.filter(decidedEarly).flatMap((slo): FailFastScope[] => {
    const stages = plan.load.stages.filter((s) =>
      !s.warmup && (slo.atRatePerSec === undefined ||
        (s.kind === "constant" && Math.abs(s.ratePerSec - slo.atRatePerSec) <= 1e-9 * s.ratePerSec))
    );
    const labels = plan.requests.flatMap((r, i) =>
      slo.label === undefined || r.label === slo.label ? [i] : []
    );
    if (stages.length === 0 || labels.length === 0) return [];
    const share = labels.reduce((n, i) => n + plan.requests[i].weight, 0) / totalWeight;
    const everyLabel = labels.length === plan.requests.length;
    const windows = schedule.stages.filter((w) => stages.some((s) => s.index === w.index));
    const seconds = new Set<number>();
    for (const w of windows) {
      const end = w.startMs + w.profile.durationMs;
      for (let s = Math.ceil(w.startMs / 1000); (s + 1) * 1000 <= end; s++) seconds.add(s);
    }
    return [{
      slo,
      stages: stages.map((s) => s.index),
      labels,
      share,
      everyLabel,
      ageMs: ageBeyondUs(slo.bound) / 1000,
      planned: windows.reduce((n, w) => n + labelBound(w.count, share, everyLabel), 0),
      ...(slo.windowMs === undefined
        ? {}
        : { seconds, windowSeconds: Math.round(slo.windowMs / 1000) }),
      certainStarts: [],
      where: `${slo.label === undefined ? "" : ` for "${slo.label}"`}${
        stages.length === 1 ? ` in stage "${stages[0].name}"` : ` in its ${stages.length} stages`
      }`,
    }];
  });
}

/**
 * At most how many of `count` consecutive requests of the mix carry labels of weight `share`: the
 * mix (a golden-ratio sequence, runner/schedule/request_mix.ts) keeps every run of requests within
 * a few of the weights, fewer than ln(count + 2) + 2.
 */
function labelBound(count: number, share: number, every: boolean): number {
  return every ? count : Math.min(count, Math.ceil(count * share + Math.log(count + 2)) + 2);
}

/**
 * A window's planned requests of `w`'s labels: the `mine` this run took in it, or for one shard of
 * `shards` the whole plan's at most (a shard's share of a run of requests is within one of
 * 1/shards of them; for a label, from `all` the shard took of every label).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { windowPlanned } from "./fail_fast_scope.ts";
 * const w = { everyLabel: true, share: 1 };
 * assert.equal(windowPlanned(500, 500, w, 1), 500);
 * assert.equal(windowPlanned(500, 500, w, 4), 2004);
 * ```
 */
export function windowPlanned(
  mine: number,
  all: number,
  w: Pick<FailFastScope, "everyLabel" | "share">,
  shards: number,
): number {
  if (shards === 1) return mine;
  return w.everyLabel ? shards * (mine + 1) : labelBound(shards * (all + 1), w.share, false);
}
