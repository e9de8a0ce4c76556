/**
 * What the run page's script draws (`report.html`): the data `buildChartData()` of
 * `reporters/html/` builds from the result, embedded in the page as JSON. The browser side's
 * contract: the page's builder writes it, `run_charts.ts`, `run_timeline.ts` and `run_style.ts`
 * read it.
 *
 * @module
 */
import type { VerdictStatus } from "../../runner/model/mod.ts";
import type { PercentileAxis } from "../page/mod.ts";

/** The data of every chart; a chart whose data is absent is not drawn. */
export interface ChartData {
  /** Latency by percentile, per view. */
  percentile: PercentileChartData;
  /** Latency and throughput per interval; absent without intervals. */
  timeline?: TimelineChartData;
  /** Latency against intended rate; absent without a ramp stage. */
  ramp?: RampChartData;
}

/** What a curve shows; the page styles each role the same way in every chart. */
export type PercentileRole = "response" | "service" | "baselineResponse" | "baselineService";

/** One curve: `[x, latencyMs]` points on the percentile axis. */
export interface PercentileSeries {
  role: PercentileRole;
  label: string;
  points: Array<[number, number]>;
}

/** A latency SLO drawn at its percentile (or at `max`) and its bound. */
export interface SloMarker {
  name: string;
  /** The verdict's status, or "not judged" when the result has no verdict for it. */
  status: VerdictStatus | "not judged";
  x: number;
  boundMs: number;
}

/** One selectable view of the chart. */
export interface PercentileView {
  title: string;
  stageIndexes: number[];
  series: PercentileSeries[];
  slos: SloMarker[];
}

/** The chart's axis and views. */
export interface PercentileChartData {
  axis: PercentileAxis;
  views: PercentileView[];
}

/** What a time-domain series shows; the page styles each role the same way everywhere. */
export type TimelineRole =
  | "p50"
  | "p99"
  | "max"
  | "serviceP99"
  | "ttfbP99"
  | "intended"
  | "sent"
  | "completed"
  | "errors"
  | "stall";

/**
 * One series: `[x, y]` points, `y` null where the interval had no value (a gap). Interval series
 * put each interval's value at its midpoint; the intended rate is one segment per stage.
 */
export interface TimelineSeries {
  role: TimelineRole;
  label: string;
  points: Array<[number, number | null]>;
}

/** A stage's span on the time axis. */
export interface StageSpan {
  name: string;
  warmup: boolean;
  startS: number;
  endS: number;
}

/** A span of run time in which a windowed SLO failed: its overlapping failed windows merged. */
export interface WindowMark {
  /** The verdict's name: the SLO as written. */
  slo: string;
  startS: number;
  endS: number;
}

/** Latency and throughput over time (x in seconds from the run's start). */
export interface TimelineChartData {
  stages: StageSpan[];
  /** Where windowed SLOs failed, to shade on the latency chart. */
  windows: WindowMark[];
  /** Where the time axis ends: the last interval's end when answers came after the schedule. */
  endS: number;
  latency: TimelineSeries[];
  throughput: TimelineSeries[];
}

/** Latency against the intended rate during ramp stages (x in requests per second). */
export interface RampChartData {
  stageNames: string[];
  latency: TimelineSeries[];
}
