/**
 * The time-domain charts' data, from the result's 1 s intervals: latency (p50, p99, max; p99 of
 * service time, and of the time to first byte in a result that has it) and
 * throughput (intended, sent, completed, errors) against time with the stage boundaries, and for
 * ramp stages latency against the intended rate.
 *
 * @module
 */
import { errorTotal } from "../../runner/model/mod.ts";
import type { EncodedHistogram, RunResult } from "../../runner/model/mod.ts";
import type {
  RampChartData,
  TimelineChartData,
  TimelineRole,
  TimelineSeries,
  WindowMark,
} from "../browser/mod.ts";

/**
 * The time series of a result; undefined when it has no intervals.
 */
export function timelineData(result: RunResult): TimelineChartData | undefined {
  const intervals = result.intervals;
  if (intervals.length === 0) return undefined;
  const at = (ms: number) => ms / 1000;
  const perInterval = (
    role: TimelineRole,
    label: string,
    pick: (i: typeof intervals[0]) => number | null,
  ) => ({
    role,
    label,
    points: intervals.map((
      i,
    ): [number, number | null] => [at(i.startMs + i.durationMs / 2), pick(i)]),
  });
  // One shard's result (`run --shard I/N`) scheduled 1/N of the plan's rate.
  const shards = result.run.shard?.count ?? 1;
  const intended: Array<[number, number | null]> = result.stages.flatMap((s) => [
    [at(s.startMs), s.fromPerSec / shards] as [number, number],
    [at(s.startMs + s.durationMs), s.toPerSec / shards] as [number, number],
  ]);
  return {
    stages: result.stages.map((s) => ({
      name: s.name,
      warmup: s.warmup,
      startS: at(s.startMs),
      endS: at(s.startMs + s.durationMs),
    })),
    windows: windowMarks(result),
    endS: at(Math.max(
      ...result.stages.map((s) => s.startMs + s.durationMs),
      ...intervals.map((i) => i.startMs + i.durationMs),
    )),
    latency: [
      perInterval("p50", "p50 response time", (i) => valueMs(i.response, "50")),
      perInterval("p99", "p99 response time", (i) => valueMs(i.response, "99")),
      perInterval("max", "max response time", (i) => valueMs(i.response, "max")),
      perInterval("serviceP99", "p99 service time", (i) => valueMs(i.service, "99")),
      // A result with times to first byte (none before they were recorded); a gRPC run's are
      // times to the first response message.
      ...(intervals.some((i) => i.ttfb !== undefined)
        ? [
          perInterval(
            "ttfbP99",
            `p99 time to first ${result.run.grpc ? "message" : "byte"}`,
            (i) => i.ttfb === undefined ? null : valueMs(i.ttfb, "99"),
          ),
        ]
        : []),
      ...stallSeries(result),
    ],
    throughput: [
      {
        role: "intended",
        label: shards === 1
          ? "intended rate (plan)"
          : `intended rate (this shard: 1/${shards} of plan)`,
        points: intended,
      },
      perInterval("sent", "sent per second", (i) => i.sentPerSec),
      perInterval("completed", "completed per second", (i) => i.completedPerSec),
      perInterval(
        "errors",
        "errors per second",
        (i) => errorTotal(i.counts) / (i.durationMs / 1000),
      ),
    ],
  };
}

/**
 * The stalls the time-domain analysis listed, as points to mark on the latency chart: at the
 * middle of the stall's first second, at its max (or the stall threshold when nothing was
 * answered). None when no stage stalled.
 */
export function stallSeries(result: RunResult): TimelineSeries[] {
  const points = result.stages.flatMap((s) =>
    (s.timeDomain?.stalls ?? []).map((stall): [number, number | null] => [
      (stall.startMs + 500) / 1000,
      Math.max(stall.maxUs, s.timeDomain?.stallThresholdUs ?? 0) / 1000 || null,
    ])
  );
  return points.length ? [{ role: "stall", label: "stall", points }] : [];
}

/**
 * The windows a windowed SLO failed in, as merged spans of run time.
 */
export function windowMarks(result: Pick<RunResult, "verdicts">): WindowMark[] {
  const marks: WindowMark[] = [];
  for (const v of result.verdicts) {
    let open: WindowMark | undefined;
    for (const f of v.windows?.findings ?? []) {
      if (f.status !== "fail") continue;
      const startS = f.startMs / 1000;
      const endS = (f.startMs + f.durationMs) / 1000;
      if (open && startS <= open.endS) open.endS = Math.max(open.endS, endS);
      else marks.push(open = { slo: v.name, startS, endS });
    }
  }
  return marks;
}

/**
 * Latency against the intended rate over the intervals of ramp stages; undefined without a ramp.
 */
export function rampData(result: RunResult): RampChartData | undefined {
  const ramps = result.stages.filter((s) => s.kind === "ramp");
  if (ramps.length === 0) return undefined;
  const rampIndexes = new Set(ramps.map((s) => s.index));
  const intervals = result.intervals
    .filter((i) => rampIndexes.has(i.stageIndex))
    .sort((a, b) => a.intendedPerSec - b.intendedPerSec);
  if (intervals.length === 0) return undefined;
  const series = (role: TimelineRole, label: string, key: "50" | "99" | "max") => ({
    role,
    label,
    points: intervals.map((i): [number, number | null] => [
      i.intendedPerSec,
      valueMs(i.response, key),
    ]),
  });
  return {
    stageNames: ramps.map((s) => s.name),
    latency: [
      series("p50", "p50 response time", "50"),
      series("p99", "p99 response time", "99"),
      series("max", "max response time", "max"),
    ],
  };
}

function valueMs(h: EncodedHistogram, key: string): number | null {
  if (h.count === 0) return null;
  const us = key === "max" ? h.maxUs : h.percentilesUs[key];
  return us === undefined ? null : us / 1000;
}
