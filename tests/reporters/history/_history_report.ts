/**
 * A history document built by hand for the history reporters' tests: one plan, 60 runs over 60
 * commits on `main`, the `steady` stage's six series, and one step: p99 rises 12% at run 40 (the
 * 41st). The levels hold a small fixed wobble; the change's means and runs are computed from the
 * values themselves, its interval and p-value (at the shuffles' floor) are the fixture's own.
 *
 * @module
 */
import {
  type HistoryChange,
  type HistoryMetric,
  type HistoryReport,
  type HistorySeries,
  type HistoryUnit,
  type PlanHistory,
} from "../../../runner/model/history_result.ts";

/** Runs in the fixture. */
export const RUNS = 60;
/** The step's run: the first at the new level. */
export const STEP_AT = 40;

/** Run i's commit: 40 hex digits, distinct for every run. */
export function commitOf(i: number): string {
  return (((i + 1) * 2654435761) >>> 0).toString(16).padStart(8, "0").repeat(5);
}

const WOBBLE = [0, 0.01, -0.008, 0.004, -0.012, 0.007, -0.003, 0.009, -0.006, 0.002];

function levels(runs: number, base: number, stepFactor = 1): number[] {
  return Array.from(
    { length: runs },
    (_, i) => Math.round(base * (i >= STEP_AT ? stepFactor : 1) * (1 + WOBBLE[i % WOBBLE.length])),
  );
}

function series(
  metric: HistoryMetric,
  unit: HistoryUnit,
  values: (number | null)[],
  bound?: HistorySeries["bound"],
): HistorySeries {
  return {
    stage: "steady",
    stageIndex: 1,
    metric,
    unit,
    values,
    ...(bound === undefined ? {} : { bound }),
  };
}

function mean(values: number[]): number {
  return values.reduce((a, b) => a + b, 0) / values.length;
}

/** The fixture's plan history; `planName` replaces the plan's name, `runs` the number of runs. */
export function planHistory(planName = "checkout", runs = RUNS): PlanHistory {
  const p99 = levels(runs, 5_000, 1.12);
  const p999 = levels(runs, 9_000, 1.1).map((v, i) => (i === 12 ? null : v));
  const errors = levels(runs, 20).map((v, i) => (i === 10 ? null : v / 10_000));
  const before = p99.slice(0, STEP_AT);
  const after = p99.slice(STEP_AT);
  const change: HistoryChange = {
    series: 2,
    kind: "step",
    direction: "worse",
    worse: true,
    index: STEP_AT,
    endIndex: STEP_AT,
    commit: commitOf(STEP_AT),
    previousCommit: commitOf(STEP_AT - 1),
    meanBefore: mean(before),
    meanAfter: mean(after),
    runsBefore: before.length,
    runsAfter: after.length,
    relativeChange: mean(after) / mean(before) - 1,
    interval95: [0.081, 0.158],
    absoluteChange: mean(after) - mean(before),
    absoluteInterval95: [405, 790],
    pValue: 2 / 3000,
    pAtFloor: true,
    shuffles: 2999,
    recent: false,
    coincides: ["the runner changed (cores: 4 vs 8)"],
    text: `p99 of stage steady rose 12% (95% interval 8.1% to 16%) near commit ${
      commitOf(STEP_AT).slice(0, 7)
    }, between ${commitOf(STEP_AT - 1).slice(0, 7)} and ${commitOf(STEP_AT).slice(0, 7)}`,
  };
  return {
    plan: planName,
    planFile: "plans/checkout.yaml",
    source: ".tailgate/baseline/checkout.json",
    runs: Array.from({ length: runs }, (_, i) => ({
      date: new Date(Date.UTC(2026, 9, 1 + i, 3, 4, 5)).toISOString(),
      commit: commitOf(i),
      branch: "main",
      runner: "cpu=EPYC;cores=4",
      plan: "plan-3f2a",
    })),
    series: [
      series("p50", "us", levels(runs, 1_500)),
      series("p90", "us", levels(runs, 3_000)),
      {
        ...series("p99", "us", p99, { value: 10_000, slo: "p99 < 10ms" }),
        minChange: { value: 0.021, spread: 0.007, reason: "3 robust SDs of its runs (SD 0.7%)" },
      },
      series("p99.9", "us", p999),
      series("throughput", "per_sec", levels(runs, 500)),
      series("error_rate", "fraction", errors, { value: 0.01, slo: "error_rate < 1%" }),
    ],
    changes: [change],
    notes: ["the runner changed at run 41 (cores: 4 vs 8)"],
  };
}

/** The fixture's whole document; `plans` replaces its plans. */
export function historyReport(plans: PlanHistory[] = [planHistory()]): HistoryReport {
  return {
    schema: "tailgate-history",
    version: 1,
    tailgateVersion: "0.0.0-test",
    generatedAt: "2026-11-30T08:00:00.000Z",
    settings: { maxPValue: 0.001, windowRuns: 50, minMagnitude: 0.05, failRecent: 0 },
    plans,
    verdict: { status: "pass", message: "no worse change in the newest runs (report only)" },
  };
}
