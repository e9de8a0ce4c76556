/**
 * A run's metrics as the exporters send them, neutral of any wire format: built from a result
 * document (`run_metrics.ts`), encoded as Prometheus remote write (`remote_write.ts`) or OTLP
 * (`otlp_metrics.ts`). One name per metric in both formats, in Prometheus's spelling: base units
 * (seconds), a counter's name without `_total` (remote write adds it), a histogram's with its
 * unit (`tailgate_response_time_seconds`).
 *
 * Cardinality is bounded by the plan: every series is one stage × label (× outcome or status for
 * the counts); `run_metrics.ts` states the bound and keeps to it.
 *
 * @module
 */

/** What a run's exporters send: who sent it, and its series. */
export interface MetricBatch {
  /**
   * The sender: `plan`, `run_id`, `commit` (absent outside a git checkout) and `shard` (`1/2`,
   * absent for a whole run). OTLP resource attributes; labels on every remote-write series.
   */
  resource: Record<string, string>;
  series: MetricSeries[];
}

/** One series: a counter, a gauge or a histogram. */
export type MetricSeries = CounterSeries | GaugeSeries | HistogramSeries;

/** What every series has. */
export interface SeriesBase {
  /** `tailgate_requests`, `tailgate_response_time_seconds`: see the module's naming. */
  name: string;
  /** One line for a reader (the `# HELP` / OTLP description). */
  help: string;
  /** UCUM unit as OTLP writes it: `s`, `{request}`, `{request}/s`. */
  unit: string;
  /** The series' own labels (`stage`, `label`, `outcome`, `status`); the resource's come on top. */
  labels: Record<string, string>;
  /**
   * Epoch ms from which a counter or histogram counts (its stage's start): every point is
   * cumulative since then. A gauge's is its first point's time.
   */
  startMs: number;
}

/** A monotonic count, cumulative since `startMs`, one point per interval end. */
export interface CounterSeries extends SeriesBase {
  kind: "counter";
  points: ScalarPoint[];
}

/** A value at a time (a rate), one point per interval end. */
export interface GaugeSeries extends SeriesBase {
  kind: "gauge";
  points: ScalarPoint[];
}

/** A value at an epoch-ms time. */
export interface ScalarPoint {
  timeMs: number;
  value: number;
}

/** A latency distribution, cumulative since `startMs`, one point per interval end. */
export interface HistogramSeries extends SeriesBase {
  kind: "histogram";
  points: HistogramPoint[];
  /** Requests standing for the distribution's tail, each at the time it was intended. */
  exemplars: MetricExemplar[];
}

/** A histogram at one time: every value recorded since the series' start. */
export interface HistogramPoint {
  timeMs: number;
  count: number;
  /** Sum of the values (bucket midpoints weighted by count, as the result's mean), seconds. */
  sumSeconds: number;
  /** Smallest and largest recorded value, seconds (0 when count is 0). */
  minSeconds: number;
  maxSeconds: number;
  /**
   * The recorded values, ascending: tailgate's HdrHistogram buckets merged within the exponential
   * buckets of scale 5 in seconds (run_metrics.ts `BATCH_SCALE`), each its lowest and highest
   * equivalent value (µs) and its count. An encoder puts each in the bucket of its own scheme that
   * holds `highestUs`; every scheme sent is a union of scale 5's buckets, so none changes a count.
   */
  buckets: Array<{ lowestUs: number; highestUs: number; count: number }>;
}

/** One request attached to a histogram: its trace, its value and when it was intended. */
export interface MetricExemplar {
  /** 32 lowercase hex digits; absent when the run sent no `traceparent`. */
  traceId?: string;
  valueSeconds: number;
  /** Its intended send time, epoch ms. */
  timeMs: number;
  /** Its status as it travelled (gRPC 1000 + code), 0 without a response. */
  status: number;
}
