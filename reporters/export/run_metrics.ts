/**
 * A result document as the metrics its exporters send ({@linkcode MetricBatch}): per stage ×
 * label, second by second, the latency histograms (response, service, first byte), the requests
 * by outcome and by status, the schedule's intended rate beside the achieved ones, and the
 * tool's send lag over the run; the slowest requests and the percentiles' requests as exemplars.
 *
 * Cardinality is the plan's: a series is one stage × label (× one outcome or status), and at
 * most {@linkcode MAX_STATUSES} statuses per stage × label are named (the rarest beyond them are
 * counted as `other`). Time is kept at the run's 1 s intervals up to {@linkcode MAX_POINTS}
 * points a series; a longer run's points are every few intervals, each still cumulative.
 *
 * @module
 */
import { createHistogram, decodeHistogram, type Histogram } from "../../runner/hdr/mod.ts";
import type {
  EncodedHistogram,
  LabelResult,
  RequestCounts,
  RunResult,
  StageResult,
} from "../../runner/model/mod.ts";
import type {
  CounterSeries,
  GaugeSeries,
  HistogramPoint,
  HistogramSeries,
  MetricBatch,
  MetricExemplar,
  MetricSeries,
} from "./metric_batch.ts";
import { exponentialIndex, exponentialUpperBound } from "./otlp_buckets.ts";

/** At most this many statuses are named per stage × label; the rest are `other`. */
export const MAX_STATUSES = 20;
/** At most this many points per series (10 minutes of 1 s intervals). */
export const MAX_POINTS = 600;
/**
 * The batch's buckets are tailgate's HDR buckets merged within the exponential buckets of this
 * scale (32 a doubling, in seconds): every scheme an encoder sends (native schema 3, classic `le`
 * at 2^(k/4) s, OTLP at scale 5 or coarser) is a union of them, so no count an encoder sends
 * changes, and a point holds ~32 buckets a doubling instead of HDR's ~1,000.
 */
export const BATCH_SCALE = 5;

const LATENCIES = [
  {
    pick: (l: LabelResult) => l.response,
    name: "tailgate_response_time_seconds",
    help:
      "Response time: completion minus the intended send time (corrected for coordinated omission).",
    exemplars: true,
  },
  {
    pick: (l: LabelResult) => l.service,
    name: "tailgate_service_time_seconds",
    help: "Service time: completion minus the time the request was written.",
    exemplars: false,
  },
  {
    pick: (l: LabelResult) => l.ttfb,
    name: "tailgate_first_byte_seconds",
    help: "Time to first byte: the response's first byte minus the intended send time.",
    exemplars: false,
  },
] as const;

/**
 * The metrics of `result`. Pure: the result's histograms are decoded, nothing is read or sent.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { measureRun, parsePlanText, startTarget } from "../../mod.ts";
 * import { runMetrics } from "./run_metrics.ts";
 *
 * await using target = await startTarget({ mode: "hello", port: 0 });
 * const { plan } = parsePlanText(`
 * name: metrics
 * target: ${target.url}
 * requests: [{ name: GET /, path: / }]
 * load: { connections: 2, stages: [{ name: steady, rate: 50/s, duration: 2s }] }
 * `);
 * const result = await measureRun(plan!);
 * const batch = runMetrics(result);
 * assert.equal(batch.resource.plan, "metrics");
 * const ok = batch.series.find((s) => s.name === "tailgate_requests" && s.labels.outcome === "ok");
 * assert.equal(ok?.kind === "counter" && ok.points.at(-1)?.value, 100);
 * const response = batch.series.find((s) => s.name === "tailgate_response_time_seconds");
 * assert.equal(response?.kind === "histogram" && response.points.at(-1)?.count, 100);
 * ```
 */
export function runMetrics(result: RunResult): MetricBatch {
  const parts = [...runMetricParts(result)];
  return { resource: resourceOf(result), series: parts.flatMap((p) => p.series) };
}

/**
 * The metrics of `result` in parts, made one at a time as they are asked for: each stage ×
 * label's series, each stage's rates, then the send lag. A sender that sends a part before it
 * asks for the next holds one stage × label's points at a time, however long the run.
 */
export function* runMetricParts(result: RunResult): Generator<MetricBatch> {
  const t0Ms = Date.parse(result.run.startedAt);
  const resource = resourceOf(result);
  for (const stage of result.stages) {
    for (const series of stageSeries(result, stage, t0Ms)) yield { resource, series };
  }
  yield { resource, series: [sendLag(result, t0Ms)] };
}

/** Who sent the metrics: the plan, the run, the commit and the shard. */
function resourceOf(result: RunResult): Record<string, string> {
  const shard = result.run.shard;
  return {
    plan: result.plan.name,
    ...(result.run.id ? { run_id: result.run.id } : {}),
    ...(result.environment.gitSha ? { commit: result.environment.gitSha } : {}),
    ...(shard ? { shard: `${shard.index + 1}/${shard.count}` } : {}),
  };
}

/** A stage's series, a stage × label at a time, then its rates. */
function* stageSeries(
  result: RunResult,
  stage: StageResult,
  t0Ms: number,
): Generator<MetricSeries[]> {
  const startMs = t0Ms + stage.startMs;
  const intervals = result.intervals.filter((i) => i.stageIndex === stage.index);
  // Every `step`th interval's end is a point, and the stage's last: at most MAX_POINTS.
  const step = Math.max(1, Math.ceil(intervals.length / MAX_POINTS));
  const pointAt = (i: number) => (i + 1) % step === 0 || i === intervals.length - 1;
  const endOf = (i: number) => t0Ms + intervals[i].startMs + intervals[i].durationMs;
  for (const label of stage.labels) {
    const out: MetricSeries[] = [];
    const labels = { stage: stage.name, label: label.label };
    const perInterval = intervals.map((i) => i.labels.find((l) => l.label === label.label));
    for (const latency of LATENCIES) {
      if (latency.pick(label) === undefined) continue;
      const points = cumulativeHistogram(
        perInterval.map((l) => l && latency.pick(l)),
        pointAt,
        endOf,
      );
      const exemplars = latency.exemplars ? exemplarsOf(label, t0Ms) : [];
      out.push(
        {
          kind: "histogram",
          name: latency.name,
          help: latency.help,
          unit: "s",
          labels,
          startMs,
          points,
          exemplars,
        } satisfies HistogramSeries,
      );
    }
    out.push(...countSeries(labels, startMs, perInterval.map((l) => l?.counts), pointAt, endOf));
    yield out;
  }
  yield rateSeries(stage, startMs, intervals, pointAt, endOf);
}

/** A histogram's points: the intervals' histograms added up, one point per chosen interval. */
function cumulativeHistogram(
  parts: Array<EncodedHistogram | undefined>,
  pointAt: (i: number) => boolean,
  endOf: (i: number) => number,
): HistogramPoint[] {
  const sum: Histogram = createHistogram();
  let count = 0, sumUs = 0, minUs = Infinity, maxUs = 0;
  const points: HistogramPoint[] = [];
  parts.forEach((part, i) => {
    if (part !== undefined && part.count > 0) {
      sum.addSparse(decodeHistogram(part.hdr).toSparse());
      count += part.count;
      sumUs += part.meanUs * part.count;
      minUs = Math.min(minUs, part.minUs);
      maxUs = Math.max(maxUs, part.maxUs);
    }
    if (!pointAt(i)) return;
    points.push({
      timeMs: endOf(i),
      count,
      sumSeconds: sumUs / 1e6,
      minSeconds: count === 0 ? 0 : minUs / 1e6,
      maxSeconds: maxUs / 1e6,
      buckets: coarseBuckets(sum),
    });
  });
  return points;
}

/**
 * `sum`'s buckets merged within the exponential buckets of {@linkcode BATCH_SCALE} (in seconds,
 * upper bound inclusive): each merged bucket spans its HDR buckets, lowest to highest.
 */
function coarseBuckets(sum: Histogram): HistogramPoint["buckets"] {
  const out: HistogramPoint["buckets"] = [];
  let index = NaN;
  let lower = Infinity;
  let upper = -Infinity;
  let last: HistogramPoint["buckets"][number] | undefined;
  for (const v of sum.recordedValues()) {
    const seconds = v.valueUs / 1e6;
    let at: number;
    if (!(seconds > 0)) at = -Infinity;
    else if (seconds > lower && seconds <= upper) at = index;
    else {
      at = exponentialIndex(seconds, BATCH_SCALE);
      lower = exponentialUpperBound(at - 1, BATCH_SCALE);
      upper = exponentialUpperBound(at, BATCH_SCALE);
    }
    if (last !== undefined && at === index) {
      last.highestUs = v.valueUs;
      last.count += v.count;
    } else {
      last = { lowestUs: v.lowestUs, highestUs: v.valueUs, count: v.count };
      out.push(last);
    }
    index = at;
  }
  return out;
}

/** The slowest requests and the percentiles' requests, once each, as exemplars. */
function exemplarsOf(label: LabelResult, t0Ms: number): MetricExemplar[] {
  const seen = new Set<string>();
  const out: MetricExemplar[] = [];
  for (const r of [...label.exemplars ?? [], ...label.slowest ?? []]) {
    const key = r.traceId ?? `${r.intendedMs}/${r.responseUs}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({
      ...(r.traceId ? { traceId: r.traceId } : {}),
      valueSeconds: r.responseUs / 1e6,
      timeMs: t0Ms + r.intendedMs,
      status: r.status,
    });
  }
  return out.sort((a, b) => a.timeMs - b.timeMs);
}

/** Requests by outcome (ok, or why not) and responses by status, cumulative. */
function countSeries(
  labels: Record<string, string>,
  startMs: number,
  parts: Array<RequestCounts | undefined>,
  pointAt: (i: number) => boolean,
  endOf: (i: number) => number,
): CounterSeries[] {
  const outcomes = new Map<string, number[]>();
  const statuses = new Map<string, number[]>();
  const add = (to: Map<string, number[]>, key: string, i: number, n: number) => {
    if (!to.has(key)) to.set(key, new Array(parts.length).fill(0));
    to.get(key)![i] += n;
  };
  parts.forEach((c, i) => {
    add(outcomes, "ok", i, c?.ok ?? 0);
    for (const [kind, n] of Object.entries(c?.errors ?? {})) add(outcomes, kind, i, n ?? 0);
    for (const [status, n] of Object.entries(c?.statusCodes ?? {})) add(statuses, status, i, n);
  });
  const counter = (name: string, help: string, own: Record<string, string>, per: number[]) => {
    let total = 0;
    const points = per.flatMap((n, i) => {
      total += n;
      return pointAt(i) ? [{ timeMs: endOf(i), value: total }] : [];
    });
    return {
      kind: "counter" as const,
      name,
      help,
      unit: "{request}",
      labels: { ...labels, ...own },
      startMs,
      points,
    };
  };
  const out: CounterSeries[] = [];
  for (const [outcome, per] of outcomes) {
    out.push(counter("tailgate_requests", "Requests completed, by outcome.", { outcome }, per));
  }
  for (const [status, per] of boundedStatuses(statuses)) {
    out.push(counter("tailgate_responses", "Responses, by status.", { status }, per));
  }
  return out;
}

/** The {@linkcode MAX_STATUSES} most frequent statuses by name; the rest summed as `other`. */
function boundedStatuses(statuses: Map<string, number[]>): Map<string, number[]> {
  if (statuses.size <= MAX_STATUSES) return statuses;
  const total = (per: number[]) => per.reduce((a, b) => a + b, 0);
  const ranked = [...statuses].sort((a, b) => total(b[1]) - total(a[1]) || (a[0] < b[0] ? -1 : 1));
  const kept = new Map(ranked.slice(0, MAX_STATUSES - 1));
  const rest = ranked.slice(MAX_STATUSES - 1).map(([, per]) => per);
  kept.set("other", rest[0].map((_, i) => rest.reduce((a, per) => a + per[i], 0)));
  return kept;
}

/** The stage's intended, sent and completed rates, second by second. */
function rateSeries(
  stage: StageResult,
  startMs: number,
  intervals: RunResult["intervals"],
  pointAt: (i: number) => boolean,
  endOf: (i: number) => number,
): GaugeSeries[] {
  const rates = [
    [
      "tailgate_intended_rate",
      "The schedule's rate: requests intended per second.",
      "intendedPerSec",
    ],
    ["tailgate_sent_rate", "Requests written per second.", "sentPerSec"],
    ["tailgate_completed_rate", "Requests completed per second.", "completedPerSec"],
  ] as const;
  return rates.map(([name, help, key]) => ({
    kind: "gauge" as const,
    name,
    help,
    unit: "{request}/s",
    labels: { stage: stage.name },
    startMs,
    points: intervals.flatMap((interval, i) =>
      pointAt(i) ? [{ timeMs: endOf(i), value: interval[key] }] : []
    ),
  }));
}

/** The tool's lateness in sending (intended → written) over the whole run: one point. */
function sendLag(result: RunResult, t0Ms: number): HistogramSeries {
  const lag = result.health.sendLag;
  const endMs = t0Ms + result.run.durationMs;
  const [point] = cumulativeHistogram([lag], () => true, () => endMs);
  return {
    kind: "histogram",
    name: "tailgate_send_lag_seconds",
    help: "How late tailgate wrote each request after its intended send time, over the run.",
    unit: "s",
    labels: {},
    startMs: t0Ms,
    points: [point],
    exemplars: [],
  };
}
