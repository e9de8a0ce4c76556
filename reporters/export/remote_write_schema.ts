/**
 * The messages of Prometheus remote write 1.0 that tailgate sends, written out here as a
 * protobufjs JSON descriptor (field numbers and types as the specification and Prometheus's
 * `prompb/types.proto` and `remote.proto` give them; the package is `prometheus`):
 * `WriteRequest { timeseries = 1 }`, `TimeSeries { labels = 1; samples = 2; exemplars = 3;
 * histograms = 4 }`, `Label`, `Sample`, `Exemplar`, and the native `Histogram` with its
 * `BucketSpan`s and delta-encoded counts. Only the subset tailgate writes: metadata (field 3 of
 * `WriteRequest`, which the 1.0 specification reserves), the float forms of a native
 * histogram's counts and its negative buckets are left out.
 *
 * @module
 */
import { type ProtoRoot, rootFromJson } from "../../runner/protobuf/mod.ts";

/** The descriptor (`rootFromJson`'s input). */
export const REMOTE_WRITE_DESCRIPTOR = {
  nested: {
    prometheus: {
      nested: {
        WriteRequest: {
          fields: {
            timeseries: { rule: "repeated", type: "TimeSeries", id: 1 },
          },
        },
        TimeSeries: {
          fields: {
            labels: { rule: "repeated", type: "Label", id: 1 },
            samples: { rule: "repeated", type: "Sample", id: 2 },
            exemplars: { rule: "repeated", type: "Exemplar", id: 3 },
            histograms: { rule: "repeated", type: "Histogram", id: 4 },
          },
        },
        Label: {
          fields: { name: { type: "string", id: 1 }, value: { type: "string", id: 2 } },
        },
        Sample: {
          fields: { value: { type: "double", id: 1 }, timestamp: { type: "int64", id: 2 } },
        },
        Exemplar: {
          fields: {
            labels: { rule: "repeated", type: "Label", id: 1 },
            value: { type: "double", id: 2 },
            timestamp: { type: "int64", id: 3 },
          },
        },
        Histogram: {
          oneofs: { count: { oneof: ["countInt"] }, zeroCount: { oneof: ["zeroCountInt"] } },
          fields: {
            countInt: { type: "uint64", id: 1 },
            sum: { type: "double", id: 3 },
            schema: { type: "sint32", id: 4 },
            zeroThreshold: { type: "double", id: 5 },
            zeroCountInt: { type: "uint64", id: 6 },
            positiveSpans: { rule: "repeated", type: "BucketSpan", id: 11 },
            positiveDeltas: { rule: "repeated", type: "sint64", id: 12 },
            resetHint: { type: "ResetHint", id: 14 },
            timestamp: { type: "int64", id: 15 },
          },
        },
        BucketSpan: {
          fields: { offset: { type: "sint32", id: 1 }, length: { type: "uint32", id: 2 } },
        },
        ResetHint: { values: { UNKNOWN: 0, YES: 1, NO: 2, GAUGE: 3 } },
      },
    },
  },
};

let root: ProtoRoot | undefined;

/** The schema, built on first use. */
export function remoteWriteRoot(): ProtoRoot {
  return root ??= rootFromJson(REMOTE_WRITE_DESCRIPTOR);
}
