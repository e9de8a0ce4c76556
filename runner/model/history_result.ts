/**
 * The history document (`history.json`, written by `tailgate history`): each plan's stored runs over
 * commits, every (stage, label, metric) series drawn from them, and the change points found in
 * those series. A versioned contract like run_result.ts; history.md and history.html read only it.
 *
 * @module
 */
import type { VerdictStatus } from "./run_result.ts";

/** The document's `schema` value. */
export const HISTORY_SCHEMA = "tailgate-history";
/**
 * The document's format version. 2: a change is `worse` only when its whole 95% interval lies on
 * the worse side (`direction`), intervals are taken on the log ratio, error rates change in points
 * (`absoluteChange`), a p-value at the shuffles' floor says so (`pAtFloor`), and the minimum
 * change is each series' own (`HistorySeries.minChange`) unless `--min-change` set one.
 */
export const HISTORY_VERSION = 2;

/**
 * A commit as the terminal, the pages and the job summary name it: its first 7 characters.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { shortCommit } from "./history_result.ts";
 * assert.equal(shortCommit("9fceb02d0ae598e95dc970b74767f19372d61af8"), "9fceb02");
 * ```
 */
export function shortCommit(commit: string): string {
  return [...commit].slice(0, 7).join("");
}

/** The metrics a history follows in every stage and label. */
export const HISTORY_METRICS = ["p50", "p90", "p99", "p99.9", "throughput", "error_rate"] as const;

/** One of {@linkcode HISTORY_METRICS}. */
export type HistoryMetric = typeof HISTORY_METRICS[number];

/** The unit of a series' values: microseconds, per second, or a fraction (0.01 is 1%). */
export type HistoryUnit = "us" | "per_sec" | "fraction";

/** One stored run, as the history lists it (oldest first). */
export interface HistoryRunRef {
  /** ISO 8601: when the run started. */
  date: string;
  /** The commit the run measured (40 hex digits, or whatever `--commit` gave), when known. */
  commit?: string;
  /** The branch it ran on, when known. */
  branch?: string;
  /** The runner's fingerprint (CPU model, cores, Deno, tailgate): runs that compare share one. */
  runner: string;
  /** The plan's fingerprint (its requests and stages as run): a change here changes the load. */
  plan: string;
}

/** One metric of one stage (and label) over the runs. */
export interface HistorySeries {
  /** The stage's name as the plan has it. */
  stage: string;
  /** The stage's position in the plan (0-based). */
  stageIndex: number;
  /** The request label, for a series of one label; absent for the stage's requests as a whole. */
  label?: string;
  /** What the values measure. */
  metric: HistoryMetric;
  /** The values' unit. */
  unit: HistoryUnit;
  /** One value per run of {@linkcode PlanHistory.runs}; null where that run lacks it. */
  values: (number | null)[];
  /** The tightest SLO bound on this metric here, in the series' unit, when the plan has one. */
  bound?: { value: number; slo: string };
  /**
   * The smallest change reported in this series, and why: `--min-change` when given, else what
   * its runs' spread supports. Absent when the series has too few runs to be looked at.
   */
  minChange?: HistoryMinChange;
}

/** A series' minimum change: a change whose whole 95% interval lies within ×/÷ (1 + value) is dropped. */
export interface HistoryMinChange {
  /** The minimum, relative: 0.012 is 1.2%. */
  value: number;
  /**
   * The robust standard deviation of one run's log value (≈ relative: 0.004 is 0.4%) it was made
   * from; absent for `--min-change` and for runs that include 0.
   */
  spread?: number;
  /** Why, in words: "3 robust SDs of its runs (SD 0.4%)", "the 1% floor (…)", "--min-change 5%". */
  reason: string;
}

/**
 * A change as the detector measures it in one series of per-run values (indexes into the
 * values): what {@linkcode HistoryChange} adds its place and words to.
 */
export interface SeriesChange {
  /** `step`: the level moved between two runs; `trend`: it crept along a line over a span of runs. */
  kind: "step" | "trend";
  /** A step's first run after the change; a trend's first run. */
  index: number;
  /** A trend's last run; a step's is its `index`. */
  endIndex: number;
  /** A step: the mean back to the previous change. A trend: its fitted line's value at `index`. */
  meanBefore: number;
  /** A step: the mean up to the next change. A trend: its line's value at `endIndex`. */
  meanAfter: number;
  /** A step: the runs `meanBefore` holds. A trend: the runs its line was fitted to. */
  runsBefore: number;
  /** A step: the runs `meanAfter` holds. A trend: as `runsBefore`. */
  runsAfter: number;
  /**
   * meanAfter / meanBefore − 1: 0.12 is "rose 12%". Each mean is floored at 0.001 × the larger, so
   * a rise from zero reads ×1000 (+99 900%): an error rate's change is said in points instead
   * (`absoluteChange`).
   */
  relativeChange: number;
  /**
   * The 95% interval of `relativeChange`, computed on the log-ratio scale and converted back: it
   * lies within (−1, +∞), never below −100%.
   */
  interval95: [number, number];
  /**
   * meanAfter − meanBefore in the series' unit (µs, per second, or a fraction: 0.002 is 0.2
   * points of error rate), the measure an error rate's change is said and judged in.
   */
  absoluteChange: number;
  /** The 95% interval of `absoluteChange` (Welch's; a trend's from its slope's). */
  absoluteInterval95: [number, number];
  /**
   * The change's significance (two-sided), as the detector tests it: a step by the shuffle scan,
   * a trend by its slope's t-test. At the scan's floor (`pAtFloor`) it is an upper bound.
   */
  pValue: number;
  /**
   * True when no shuffle reached the step (on one of the scan's two scales): `pValue` is then the
   * floor of the shuffles run, 2 / (1 + `shuffles`) (0.00067 from 2999 at the default p ≤ 0.001),
   * the smallest they can show; the true p is at most that. Always false for a trend.
   */
  pAtFloor: boolean;
  /** A step: the shuffles its p-value was measured from. A trend: absent. */
  shuffles?: number;
}

/** The figure a change is said and judged in, with its 95% interval. */
export interface ChangeFigure {
  /** `points`: an error rate's difference (0.002 is 0.2 points); `relative`: any other's ratio − 1. */
  measure: "relative" | "points";
  /** The change: a fraction of the level before (`relative`) or of all requests (`points`). */
  value: number;
  /** Its 95% interval. */
  interval95: [number, number];
}

/**
 * The figure a change of a series in `unit` is said and judged in: an error rate's in points
 * (its `absoluteChange`: a rate from 0 has no relative change worth saying), any other's relative.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { changeFigure } from "./history_result.ts";
 * const change = {
 *   relativeChange: 999,
 *   interval95: [900, 1100] as [number, number],
 *   absoluteChange: 0.002,
 *   absoluteInterval95: [0.0015, 0.0025] as [number, number],
 * };
 * assert.deepEqual(changeFigure("fraction", change), {
 *   measure: "points",
 *   value: 0.002,
 *   interval95: [0.0015, 0.0025],
 * });
 * assert.equal(changeFigure("us", change).measure, "relative");
 * ```
 */
export function changeFigure(
  unit: HistoryUnit,
  change:
    & Pick<SeriesChange, "relativeChange" | "interval95">
    & Partial<Pick<SeriesChange, "absoluteChange" | "absoluteInterval95">>,
): ChangeFigure {
  if (
    unit === "fraction" && change.absoluteChange !== undefined &&
    change.absoluteInterval95 !== undefined
  ) {
    return {
      measure: "points",
      value: change.absoluteChange,
      interval95: change.absoluteInterval95,
    };
  }
  return { measure: "relative", value: change.relativeChange, interval95: change.interval95 };
}

/**
 * Which way a change went as far as its 95% interval shows: `worse` (latency or errors up,
 * throughput down) or `better` when the whole interval lies on that side of no change, `unclear`
 * when it includes no change.
 */
export type HistoryChangeDirection = "worse" | "better" | "unclear";

/** A change found in a series, placed among the runs and said in words. */
export interface HistoryChange extends SeriesChange {
  /** Index into {@linkcode PlanHistory.series}. */
  series: number;
  /**
   * Worse, better, or unclear: an interval that includes no change says neither, and such a
   * change fails nothing (`--fail-recent`).
   */
  direction: HistoryChangeDirection;
  /** True when `direction` is `worse`: the change's whole 95% interval lies on the worse side. */
  worse: boolean;
  /** The commit of run `index` (the change is near it), when known. */
  commit?: string;
  /** The commit of the run before `index`: the change lies between the two. */
  previousCommit?: string;
  /** True when `index` lies within the newest `--fail-recent` runs. */
  recent: boolean;
  /** What else changed at the same run: "the runner changed (cpu: A vs B)", "the plan changed". */
  coincides: string[];
  /** The change in words, commits by their first 7 characters. */
  text: string;
}

/** One plan's history. */
export interface PlanHistory {
  /** The history's name (the plan's name). */
  plan: string;
  /** The plan file. */
  planFile: string;
  /** The history file read. */
  source: string;
  /** Every run looked at, oldest first: every stored run, or those `--last` and `--since` kept. */
  runs: HistoryRunRef[];
  /** Every series, stage by stage: the stage as a whole first, then each label. */
  series: HistorySeries[];
  /** Every change found, in the order of their runs. */
  changes: HistoryChange[];
  /** What the reader should know about this history (too few runs, a restarted history...). */
  notes: string[];
}

/** The settings the changes were found with. */
export interface HistorySettings {
  /** The largest p-value a change may have (two-sided): 0.001 by default. */
  maxPValue: number;
  /** Runs per window of the split step: 50 by default. */
  windowRuns: number;
  /**
   * `--min-change`: the smallest relative change reported in every series. Absent (the default):
   * each series' own, from its runs' spread (`HistorySeries.minChange`).
   */
  minMagnitude?: number;
  /** `--fail-recent N`: a worse change within the newest N runs fails; 0 only reports. */
  failRecent: number;
  /** `--last N`: only each history's newest N runs were looked at. */
  lastRuns?: number;
  /** `--since COMMIT`: only the runs from the first of this commit (a prefix) on. */
  sinceCommit?: string;
}

/** The whole `history.json` document. */
export interface HistoryReport {
  /** Always {@linkcode HISTORY_SCHEMA}. */
  schema: typeof HISTORY_SCHEMA;
  /** The format version ({@linkcode HISTORY_VERSION}). */
  version: number;
  /** The tailgate that wrote it. */
  tailgateVersion: string;
  /** ISO 8601: when the document was made. */
  generatedAt: string;
  /** The settings the changes were found with. */
  settings: HistorySettings;
  /** Each plan with a stored history, in the order named. */
  plans: PlanHistory[];
  /**
   * The document's verdict, computed once: `fail` when a worse change lies within the newest
   * `failRecent` runs, else `pass`; the message says which changes, or that none did.
   */
  verdict: { status: Extract<VerdictStatus, "pass" | "fail">; message: string };
}
