/**
 * Result documents for the .hlog tests. Deterministic (fixed start time, seeded or explicit
 * histograms): tests/testdata/hdr/reference_hlog_vectors.json records what the Rust
 * `hdrhistogram` crate read from their rendering, so they must not change.
 *
 * @module
 */
import { createHistogram, type Histogram, maxRecordableUs } from "../../../runner/hdr/_hdr.ts";
import { toEncodedHistogram } from "../../../runner/hdr/encoded_histogram.ts";
import { emptyCounts } from "../../../runner/model/request_counts.ts";
import type { IntervalResult, RunResult } from "../../../runner/model/run_result.ts";
import { gateResult, pointsUs, scaledUs, uniformUs } from "../../_helpers/gate_fixtures.ts";
import { sampleResult } from "../../_helpers/result_fixtures.ts";
import { seededHistogram } from "../../_helpers/histogram_assertions.ts";

/** Labels that need the tag encoding: a space, a comma and braces, non-ASCII and `%`. */
export const HLOG_LABELS = ["GET /orders", "POST /orders/{id},v2", "café 100%"] as const;

/** One interval as a test wants it: per label, response and service times. */
interface IntervalSpec {
  startMs: number;
  durationMs: number;
  labels: Array<{ label: string; response: Histogram; service: Histogram }>;
}

/**
 * The fixtures by name, as the committed .hlog files and vectors name them:
 * `sample` is {@linkcode sampleResult} with every request answered (3 intervals, 2 labels, a real
 * recorder run; the histograms the vectors were made from);
 * `intervals` is {@linkcode intervalsResult}.
 *
 * @example
 * ```ts
 * import { HLOG_FIXTURES } from "./_hlog_fixtures.ts";
 * HLOG_FIXTURES.sample().intervals.length; // 3
 * ```
 */
export const HLOG_FIXTURES: Readonly<Record<"sample" | "intervals", () => RunResult>> = {
  sample: () => sampleResult({}, { everyRequestAnswered: true }),
  intervals: () => intervalsResult(),
};

/**
 * A gate-fixture result whose four intervals hold chosen histograms: wide seeded spreads with
 * zeros, the 1-hour top bucket, a label missing from one interval, an interval without requests
 * and a last interval of 510 ms; the run starts at a time with milliseconds.
 *
 * @example
 * ```ts
 * import { intervalsResult } from "./_hlog_fixtures.ts";
 * intervalsResult().intervals.length; // 4
 * ```
 */
export function intervalsResult(): RunResult {
  const [get, post, cafe] = HLOG_LABELS;
  const result = gateResult([{ ratePerSec: 1000, durationMs: 3_510, labels: [] }], {
    startedAt: "2025-03-04T05:06:07.089Z",
  });
  const specs: IntervalSpec[] = [
    {
      startMs: 0,
      durationMs: 1000,
      labels: [
        { label: get, response: seededHistogram(11, 400), service: seededHistogram(12, 380) },
        { label: post, response: scaledUs(200, 1), service: uniformUs(180, 200, 900) },
        {
          label: cafe,
          response: pointsUs([[0, 3], [1, 1], [999, 2], [1_000, 2], [1_536, 4], [1_537, 5]]),
          service: pointsUs([[0, 1], [2_047, 3], [2_048, 3], [2_049, 1]]),
        },
      ],
    },
    {
      startMs: 1000,
      durationMs: 1000,
      labels: [
        { label: get, response: scaledUs(600, 2.5), service: scaledUs(600, 1.5) },
        { label: post, response: uniformUs(301, 1, 120_000), service: uniformUs(299, 1, 90_000) },
      ],
    },
    {
      startMs: 2000,
      durationMs: 1000,
      labels: [{ label: get, response: createHistogram(), service: createHistogram() }],
    },
    {
      startMs: 3000,
      durationMs: 510,
      labels: [
        {
          label: get,
          response: pointsUs([[maxRecordableUs, 1], [3_599_999_999, 2], [17, 40]]),
          service: pointsUs([[maxRecordableUs - 1_000_000, 1], [16, 42]]),
        },
        { label: post, response: seededHistogram(13, 300), service: seededHistogram(14, 280) },
        { label: cafe, response: scaledUs(7, 40), service: scaledUs(7, 30) },
      ],
    },
  ];
  result.intervals = specs.map(intervalResult);
  return result;
}

function intervalResult(spec: IntervalSpec): IntervalResult {
  const response = createHistogram();
  const service = createHistogram();
  const labels = spec.labels.map((l) => {
    response.add(l.response);
    service.add(l.service);
    const counts = { ...emptyCounts(), completed: l.response.totalCount };
    return {
      label: l.label,
      counts,
      response: toEncodedHistogram(l.response),
      service: toEncodedHistogram(l.service),
    };
  });
  const perSec = response.totalCount / (spec.durationMs / 1000);
  return {
    startMs: spec.startMs,
    durationMs: spec.durationMs,
    stageIndex: 0,
    intendedPerSec: perSec,
    sentPerSec: perSec,
    completedPerSec: perSec,
    counts: { ...emptyCounts(), completed: response.totalCount },
    labels,
    response: toEncodedHistogram(response),
    service: toEncodedHistogram(service),
  };
}
