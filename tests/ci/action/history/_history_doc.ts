/**
 * history.json documents as `tailgate history` writes them (runner/model/history_result.ts), for
 * the Action's tests: a plan's runs over commits, its p99 series with a step up and a step down,
 * and the changes found in it, their means and words computed from the series.
 *
 * @module
 */
import {
  HISTORY_SCHEMA,
  HISTORY_VERSION,
  type HistoryChange,
  type HistoryReport,
  type PlanHistory,
} from "../../../../runner/model/history_result.ts";

/** A 40-digit commit id made from `n`. */
export function commitOf(n: number): string {
  return (n.toString(16).padStart(4, "0") + "c0ffee").repeat(4).slice(0, 40);
}

/** A step of the series: the first run at the new level, and that level (µs). */
export interface Step {
  index: number;
  levelUs: number;
}

/**
 * One plan's history of `runs` runs, one per commit, p99 of stage `stage` at `startUs` and then at
 * each step's level; each step is a change, `recent` when it lies within the newest `recentRuns`.
 */
export function planHistory(
  plan: string,
  options: { runs: number; startUs: number; steps: Step[]; recentRuns: number; stage?: string },
): PlanHistory {
  const stage = options.stage ?? "main";
  const values: number[] = [];
  for (let i = 0; i < options.runs; i++) {
    const step = options.steps.filter((s) => s.index <= i).at(-1);
    values.push(step?.levelUs ?? options.startUs);
  }
  const bounds = [0, ...options.steps.map((s) => s.index), options.runs];
  const changes = options.steps.map((s, k): HistoryChange => {
    const before = values.slice(bounds[k], bounds[k + 1]);
    const after = values.slice(bounds[k + 1], bounds[k + 2]);
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const relativeChange = mean(after) / mean(before) - 1;
    const commit = commitOf(s.index);
    const previousCommit = commitOf(s.index - 1);
    const pct = (x: number) => `${Math.round(Math.abs(x) * 100)}%`;
    return {
      series: 0,
      kind: "step",
      direction: relativeChange > 0 ? "worse" : "better",
      worse: relativeChange > 0,
      index: s.index,
      endIndex: s.index,
      commit,
      previousCommit,
      meanBefore: mean(before),
      meanAfter: mean(after),
      runsBefore: before.length,
      runsAfter: after.length,
      relativeChange,
      interval95: [relativeChange * 0.8, relativeChange * 1.2],
      absoluteChange: mean(after) - mean(before),
      absoluteInterval95: [(mean(after) - mean(before)) * 0.8, (mean(after) - mean(before)) * 1.2],
      pValue: 0.0001,
      pAtFloor: false,
      recent: s.index >= options.runs - options.recentRuns,
      coincides: [],
      text: `p99 of stage ${stage} ${relativeChange > 0 ? "rose" : "fell"} ${
        pct(relativeChange)
      } (95% interval ${pct(relativeChange * 0.8)} to ${pct(relativeChange * 1.2)}) near commit ${
        commit.slice(0, 7)
      }, between ${previousCommit.slice(0, 7)} and ${commit.slice(0, 7)}`,
    };
  });
  return {
    plan,
    planFile: `plans/${plan}.yaml`,
    source: `.tailgate/baselines/${plan}.json`,
    runs: values.map((_, i) => ({
      date: new Date(Date.UTC(2026, 10, 1 + i)).toISOString(),
      commit: commitOf(i),
      branch: "main",
      runner: "cpu-a",
      plan: "plan-a",
    })),
    series: [{ stage, stageIndex: 0, metric: "p99", unit: "us", values }],
    changes,
    notes: [],
  };
}

/** The whole document around `plans`, its verdict as `tailgate history` computes it. */
export function historyReport(plans: PlanHistory[], failRecent: number): HistoryReport {
  const failing = plans.flatMap((p) => p.changes.filter((c) => c.recent && c.worse));
  return {
    schema: HISTORY_SCHEMA,
    version: HISTORY_VERSION,
    tailgateVersion: "0.1.0",
    generatedAt: "2026-11-27T09:00:00.000Z",
    settings: { maxPValue: 0.001, windowRuns: 50, minMagnitude: 0.05, failRecent },
    plans,
    verdict: failing.length > 0
      ? { status: "fail", message: `${failing.length} worse change(s) in the newest runs` }
      : { status: "pass", message: "no worse change in the newest runs" },
  };
}
