/**
 * A run's metrics for the monitoring a team already runs: made from a result
 * ({@linkcode runMetrics}), sent once the run is judged to Prometheus remote write and OTLP/HTTP
 * receivers ({@linkcode exportRun}) with retries and bounds, a receiver that does not take them a
 * warning. This door loads no wire format: protobufjs and snappy come with the first export.
 *
 * @module
 */
export { EXPORT_OTLP_SCALE, type ExportOutcome, exportRun } from "./export_run.ts";
export type {
  CounterSeries,
  GaugeSeries,
  HistogramPoint,
  HistogramSeries,
  MetricBatch,
  MetricExemplar,
  MetricSeries,
  ScalarPoint,
  SeriesBase,
} from "./metric_batch.ts";
export { MAX_POINTS, MAX_STATUSES, runMetrics } from "./run_metrics.ts";
export {
  exportWarning,
  type ExportWire,
  sendExport,
  type SendOptions,
  type SendReport,
} from "./send_exports.ts";
