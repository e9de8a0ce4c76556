/**
 * The part of the OpenTelemetry protocol's metrics schema tailgate writes, as a protobufjs JSON
 * descriptor: `ExportMetricsServiceRequest` down to the exponential histogram's buckets and the
 * exemplar. Field names, numbers and types are those of opentelemetry-proto
 * (`opentelemetry/proto/{collector/metrics,metrics,common,resource}/v1/*.proto`); message types
 * and fields tailgate never sends (Histogram, Summary, arrays, key-value lists and bytes in
 * AnyValue, dropped-attribute counts, metadata) are left out, which changes nothing on the wire.
 * `optional` fields are proto3 optional (a synthetic oneof), so a 0 is still sent.
 *
 * @module
 */

const COMMON = ".opentelemetry.proto.common.v1";
const METRICS = ".opentelemetry.proto.metrics.v1";

/** A proto3 `optional` field: a one-field oneof named `_field`, so presence is kept. */
function optionalOneofs(...fields: string[]): Record<string, { oneof: string[] }> {
  return Object.fromEntries(fields.map((f) => [`_${f}`, { oneof: [f] }]));
}

const repeated = (type: string, id: number) => ({ rule: "repeated", type, id });
const optional = (type: string, id: number) => ({ type, id, options: { proto3_optional: true } });

/** The descriptor `rootFromJson` (runner/protobuf) reads. */
export const OTLP_METRICS_SCHEMA: unknown = {
  nested: {
    opentelemetry: {
      nested: {
        proto: {
          nested: {
            collector: {
              nested: {
                metrics: {
                  nested: {
                    v1: {
                      nested: {
                        ExportMetricsServiceRequest: {
                          fields: { resource_metrics: repeated(`${METRICS}.ResourceMetrics`, 1) },
                        },
                      },
                    },
                  },
                },
              },
            },
            common: {
              nested: {
                v1: {
                  nested: {
                    AnyValue: {
                      oneofs: {
                        value: {
                          oneof: ["string_value", "bool_value", "int_value", "double_value"],
                        },
                      },
                      fields: {
                        string_value: { type: "string", id: 1 },
                        bool_value: { type: "bool", id: 2 },
                        int_value: { type: "int64", id: 3 },
                        double_value: { type: "double", id: 4 },
                      },
                    },
                    KeyValue: {
                      fields: {
                        key: { type: "string", id: 1 },
                        value: { type: `${COMMON}.AnyValue`, id: 2 },
                      },
                    },
                    InstrumentationScope: {
                      fields: {
                        name: { type: "string", id: 1 },
                        version: { type: "string", id: 2 },
                        attributes: repeated(`${COMMON}.KeyValue`, 3),
                      },
                    },
                  },
                },
              },
            },
            resource: {
              nested: {
                v1: {
                  nested: {
                    Resource: { fields: { attributes: repeated(`${COMMON}.KeyValue`, 1) } },
                  },
                },
              },
            },
            metrics: { nested: { v1: { nested: metricsTypes() } } },
          },
        },
      },
    },
  },
};

function metricsTypes() {
  return {
    AggregationTemporality: {
      values: {
        AGGREGATION_TEMPORALITY_UNSPECIFIED: 0,
        AGGREGATION_TEMPORALITY_DELTA: 1,
        AGGREGATION_TEMPORALITY_CUMULATIVE: 2,
      },
    },
    ResourceMetrics: {
      fields: {
        resource: { type: ".opentelemetry.proto.resource.v1.Resource", id: 1 },
        scope_metrics: repeated(`${METRICS}.ScopeMetrics`, 2),
        schema_url: { type: "string", id: 3 },
      },
    },
    ScopeMetrics: {
      fields: {
        scope: { type: `${COMMON}.InstrumentationScope`, id: 1 },
        metrics: repeated(`${METRICS}.Metric`, 2),
        schema_url: { type: "string", id: 3 },
      },
    },
    Metric: {
      oneofs: { data: { oneof: ["gauge", "sum", "exponential_histogram"] } },
      fields: {
        name: { type: "string", id: 1 },
        description: { type: "string", id: 2 },
        unit: { type: "string", id: 3 },
        gauge: { type: `${METRICS}.Gauge`, id: 5 },
        sum: { type: `${METRICS}.Sum`, id: 7 },
        exponential_histogram: { type: `${METRICS}.ExponentialHistogram`, id: 10 },
      },
    },
    Gauge: { fields: { data_points: repeated(`${METRICS}.NumberDataPoint`, 1) } },
    Sum: {
      fields: {
        data_points: repeated(`${METRICS}.NumberDataPoint`, 1),
        aggregation_temporality: { type: `${METRICS}.AggregationTemporality`, id: 2 },
        is_monotonic: { type: "bool", id: 3 },
      },
    },
    ExponentialHistogram: {
      fields: {
        data_points: repeated(`${METRICS}.ExponentialHistogramDataPoint`, 1),
        aggregation_temporality: { type: `${METRICS}.AggregationTemporality`, id: 2 },
      },
    },
    NumberDataPoint: {
      oneofs: { value: { oneof: ["as_double", "as_int"] } },
      fields: {
        attributes: repeated(`${COMMON}.KeyValue`, 7),
        start_time_unix_nano: { type: "fixed64", id: 2 },
        time_unix_nano: { type: "fixed64", id: 3 },
        as_double: { type: "double", id: 4 },
        as_int: { type: "sfixed64", id: 6 },
        exemplars: repeated(`${METRICS}.Exemplar`, 5),
        flags: { type: "uint32", id: 8 },
      },
    },
    ExponentialHistogramDataPoint: {
      oneofs: optionalOneofs("sum", "min", "max"),
      fields: {
        attributes: repeated(`${COMMON}.KeyValue`, 1),
        start_time_unix_nano: { type: "fixed64", id: 2 },
        time_unix_nano: { type: "fixed64", id: 3 },
        count: { type: "fixed64", id: 4 },
        sum: optional("double", 5),
        scale: { type: "sint32", id: 6 },
        zero_count: { type: "fixed64", id: 7 },
        positive: { type: `${METRICS}.ExponentialHistogramDataPoint.Buckets`, id: 8 },
        negative: { type: `${METRICS}.ExponentialHistogramDataPoint.Buckets`, id: 9 },
        flags: { type: "uint32", id: 10 },
        exemplars: repeated(`${METRICS}.Exemplar`, 11),
        min: optional("double", 12),
        max: optional("double", 13),
        zero_threshold: { type: "double", id: 14 },
      },
      nested: {
        Buckets: {
          fields: {
            offset: { type: "sint32", id: 1 },
            bucket_counts: { ...repeated("uint64", 2), options: { packed: true } },
          },
        },
      },
    },
    Exemplar: {
      oneofs: { value: { oneof: ["as_double", "as_int"] } },
      fields: {
        filtered_attributes: repeated(`${COMMON}.KeyValue`, 7),
        time_unix_nano: { type: "fixed64", id: 2 },
        as_double: { type: "double", id: 3 },
        as_int: { type: "sfixed64", id: 6 },
        span_id: { type: "bytes", id: 4 },
        trace_id: { type: "bytes", id: 5 },
      },
    },
  };
}
