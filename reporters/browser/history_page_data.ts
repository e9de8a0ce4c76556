/**
 * What history.html draws: the data `historyChartData()` of `reporters/history/` builds from the
 * history report. The browser side's contract: `history_charts.ts` reads it.
 *
 * @module
 */
import type { HistoryChangeDirection, HistoryMetric } from "../../runner/model/mod.ts";

/** One run on the x axis. */
export interface HistoryRunPoint {
  /** The axis label: the commit's first 7 characters, else the run's date. */
  tick: string;
  /** The commit's first 7 characters, when known. */
  commit?: string;
  /** The branch it ran on, when known. */
  branch?: string;
  /** The run's date and time (UTC, to the minute). */
  date: string;
}

/** One metric's line: a value per run, in the chart's display unit; null leaves a gap. */
export interface HistoryLine {
  /** The metric the line follows. */
  metric: HistoryMetric;
  /** One value per run, oldest first. */
  values: (number | null)[];
}

/** A change point as the chart marks it. */
export interface HistoryMark {
  /** A step between two runs, or a trend over a span of runs. */
  kind: "step" | "trend";
  /** True for a change for the worse (drawn in the failing colour). */
  worse: boolean;
  /** Worse (red), better (green) or unclear (grey): an interval that includes no change. */
  direction: HistoryChangeDirection;
  /** The metrics that changed there, alike (one mark for p50 to p99.9 moving together). */
  metrics: HistoryMetric[];
  /** A step's run (the first after the change), or a trend's first run. */
  index: number;
  /** A trend's last run; a step's is `index`. */
  endIndex: number;
  /** `p99 rose 12%`; `p50, p99 rose 12%` when they moved alike; else each, `; ` between. */
  text: string;
}

/** An SLO bound drawn across the chart, in its display unit. */
export interface HistoryBound {
  /** The metric the SLO bounds. */
  metric: HistoryMetric;
  /** The bound in the chart's display unit. */
  value: number;
  /** The SLO as the plan wrote it. */
  text: string;
}

/** One chart: a stage (and label), one kind of metric. */
export interface HistoryChart {
  /** The canvas's id in the page. */
  id: string;
  /** `stage steady · GET /a · latency`. */
  title: string;
  /** What the y axis shows: latency (ms, log or linear), requests per second, percent. */
  axis: "latency" | "throughput" | "error_rate";
  /** The metrics drawn, one line each. */
  lines: HistoryLine[];
  /** The change points of those metrics. */
  marks: HistoryMark[];
  /** The SLO bounds on those metrics. */
  bounds: HistoryBound[];
}

/** One plan's runs and charts. */
export interface HistoryPlanCharts {
  /** The plan's name. */
  plan: string;
  /** Its runs, oldest first: the x axis. */
  runs: HistoryRunPoint[];
  /** Its charts, by stage, label and kind of metric. */
  charts: HistoryChart[];
}

/** Everything the page's script reads. */
export interface HistoryChartData {
  /** Each plan of the document, in its order. */
  plans: HistoryPlanCharts[];
}
