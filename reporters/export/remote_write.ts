/**
 * A metric batch as a Prometheus remote write 1.0 request: the protobuf `prometheus.WriteRequest`
 * (schema in `remote_write_schema.ts`), snappy-compressed in the block format, to be POSTed with
 * {@linkcode REMOTE_WRITE_HEADERS} (and the sender's `User-Agent`). Pure: no I/O.
 *
 * - Every series carries `__name__`, the batch's resource labels and its own labels (its own win
 *   a clash), sorted by name; a label with an empty value is left out, and a character Prometheus
 *   does not allow in a name becomes `_`.
 * - A counter is `<name>_total`, a gauge `<name>`; samples in time order. A series without
 *   points is left out.
 * - A histogram is either native (`histograms: "native"`: one series `<name>` of native
 *   histograms, schema 3) or classic (`"classic"`: `<name>_bucket{le}` cumulative, `<name>_count`,
 *   `<name>_sum`); the bucket schemes, their error against tailgate's percentiles and the bound on
 *   the classic buckets are in `remote_write_buckets.ts`. A receiver that refuses native histograms
 *   ({@linkcode refusesNativeHistograms}) is to be sent the same batch again as classic.
 * - Exemplars (the `trace_id` label when the run traced, the value in seconds, the intended time)
 *   go on the `_bucket` series whose `le` holds their value, or with the native histogram (in an
 *   entry of its own after the histogram's: Prometheus 2.42 appends a series' exemplars before
 *   its histograms, and drops an exemplar of a series it does not hold yet).
 * - No metadata: the 1.0 specification reserves its field (Prometheus sends it in requests of its
 *   own); the samples, native histograms and exemplars are what Prometheus's receiver reads
 *   (`TimeSeries` fields 2, 4 and 3: the latter two are Prometheus's, beyond the 1.0 text).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { encodeRemoteWrite, writeRequest } from "./remote_write.ts";
 * const batch = {
 *   resource: { plan: "demo", run_id: "r1" },
 *   series: [{
 *     kind: "counter" as const, name: "tailgate_requests", help: "Requests.", unit: "{request}",
 *     labels: { stage: "main" }, startMs: 1_000, points: [{ timeMs: 2_000, value: 5 }],
 *   }],
 * };
 * assert.deepEqual(writeRequest(batch, { histograms: "native" }).timeseries, [{
 *   labels: [
 *     { name: "__name__", value: "tailgate_requests_total" },
 *     { name: "plan", value: "demo" },
 *     { name: "run_id", value: "r1" },
 *     { name: "stage", value: "main" },
 *   ],
 *   samples: [{ value: 5, timestamp: 2_000 }],
 * }]);
 * const body: Uint8Array = encodeRemoteWrite(batch, { histograms: "native" }); // POST it
 * assert.equal(body[0], 96); // snappy's preamble: the protobuf's length, 96 bytes
 * ```
 *
 * @module
 */
import { encode } from "../../runner/protobuf/mod.ts";
import { snappyCompress } from "./_snappy.ts";
import type { MetricBatch, MetricSeries } from "./metric_batch.ts";
import { remoteWriteRoot } from "./remote_write_schema.ts";
import {
  classicSeries,
  nativeSeries,
  sortedLabels,
  type WireSeries,
} from "./remote_write_series.ts";

/** How histograms travel: native histograms, or classic `_bucket`/`_count`/`_sum` series. */
export type HistogramForm = "native" | "classic";

/** What {@linkcode encodeRemoteWrite} is asked for. */
export interface RemoteWriteOptions {
  histograms: HistogramForm;
}

/** The headers a remote write request carries, besides the sender's `User-Agent`. */
export const REMOTE_WRITE_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  "Content-Encoding": "snappy",
  "Content-Type": "application/x-protobuf",
  "X-Prometheus-Remote-Write-Version": "0.1.0",
});

/** The request body: `WriteRequest` protobuf, snappy block format. */
export function encodeRemoteWrite(
  batch: MetricBatch,
  options: RemoteWriteOptions,
): Uint8Array<ArrayBuffer> {
  return snappyCompress(
    encode(remoteWriteRoot(), "prometheus.WriteRequest", writeRequest(batch, options)),
  );
}

/** The `WriteRequest` as the plain object protobufjs encodes (exported for the tests). */
export function writeRequest(
  batch: MetricBatch,
  options: RemoteWriteOptions,
): { timeseries: WireSeries[] } {
  const timeseries: WireSeries[] = [];
  for (const series of batch.series) {
    if (series.points.length === 0) continue; // a series without samples is no series
    const labels = { ...cleanLabels(batch.resource), ...cleanLabels(series.labels) };
    const family = familyName(series);
    if (series.kind === "histogram") {
      timeseries.push(
        ...(options.histograms === "native"
          ? nativeSeries(series, family, labels)
          : classicSeries(series, family, labels)),
      );
    } else {
      const points = [...series.points].sort((a, b) => a.timeMs - b.timeMs);
      timeseries.push({
        labels: sortedLabels({ ...labels, __name__: family }),
        samples: points.map((p) => ({ value: p.value, timestamp: p.timeMs })),
      });
    }
  }
  return { timeseries };
}

/**
 * Whether a receiver's answer to a request holding native histograms means it does not take
 * them, so the batch is to be sent again with classic ones. Prometheus 2.42 without
 * `--enable-feature=native-histograms` answers 500 with the body
 * `native histograms are disabled` (its remote-write receiver maps an append error it does not
 * know to 500); a 400 saying the same is taken too, as other receivers (and later versions) may
 * call it a bad request.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { refusesNativeHistograms } from "./remote_write.ts";
 * assert.equal(refusesNativeHistograms(500, "native histograms are disabled\n"), true);
 * assert.equal(refusesNativeHistograms(500, "out of memory"), false);
 * ```
 */
export function refusesNativeHistograms(status: number, body: string): boolean {
  return (status === 400 || status === 500) && /native histograms are disabled/i.test(body);
}

function familyName(series: MetricSeries): string {
  const name = metricName(series.name);
  return series.kind === "counter" && !name.endsWith("_total") ? `${name}_total` : name;
}

function cleanLabels(labels: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(labels)) {
    if (value !== "") out[labelName(name)] = value;
  }
  return out;
}

function labelName(name: string): string {
  const clean = name.replace(/[^a-zA-Z0-9_]/g, "_");
  return /^[0-9]/.test(clean) ? `_${clean}` : clean;
}

function metricName(name: string): string {
  const clean = name.replace(/[^a-zA-Z0-9_:]/g, "_");
  return /^[0-9]/.test(clean) ? `_${clean}` : clean;
}
