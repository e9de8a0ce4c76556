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
/** The document's format version. */
export const HISTORY_VERSION = 1;

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
}

/** A change found in a series. */
export interface HistoryChange {
  /** Index into {@linkcode PlanHistory.series}. */
  series: number;
  /** `step`: the level moved between two runs; `trend`: it crept over a span of runs. */
  kind: "step" | "trend";
  /** True when the change is for the worse (latency or errors up, throughput down). */
  worse: boolean;
  /** The first run after the change (a step), or the trend's first run: an index into `runs`. */
  index: number;
  /** A trend's last run; a step's is its `index`. */
  endIndex: number;
  /** The commit of run `index` (the change is near it), when known. */
  commit?: string;
  /** The commit of the run before `index`: the change lies between the two. */
  previousCommit?: string;
  /**
   * A step: the mean of the series over the runs before the change (back to the previous change).
   * A trend: its fitted line's value at `index`.
   */
  meanBefore: number;
  /**
   * A step: the mean over the runs after it (up to the next change). A trend: its line's value
   * at `endIndex`.
   */
  meanAfter: number;
  /** Runs the two means hold (a trend: the runs its line was fitted to, in both). */
  runsBefore: number;
  /** Runs `meanAfter` holds (a trend: as `runsBefore`). */
  runsAfter: number;
  /**
   * meanAfter / meanBefore − 1: 0.12 is "rose 12%". A meanBefore near zero is floored at 0.001 ×
   * the larger mean, so a rise from zero reads +1000× (100 000%): say it from the means instead.
   */
  relativeChange: number;
  /** The 95% interval of `relativeChange`. */
  interval95: [number, number];
  /**
   * The change's significance (two-sided), as the detector tests it: a step by the shuffle scan
   * (0.00067: none of 3000 shuffles came near), a trend by its slope's t-test.
   */
  pValue: number;
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
  /** Every stored run, oldest first. */
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
  /** The smallest relative change reported: 0.05 (5%) by default. */
  minMagnitude: number;
  /** `--fail-recent N`: a worse change within the newest N runs fails; 0 only reports. */
  failRecent: number;
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
