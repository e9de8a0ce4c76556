/**
 * Merges the results of a sharded run (`tailgate run --shard I/N` on N machines) into the result
 * of the whole plan: histograms merged exactly (never a percentile averaged), counts added,
 * per-interval data aligned by wall-clock time (each interval's CPU contention the worst shard's),
 * the tool's health of every shard kept, a shard's fail-fast stop (the first, when several
 * stopped), and the first body of each unexpected status (the first on the merged clock). Shards that spoke different protocols are refused. The verdicts are left empty: the
 * gates are judged once, on the merged result.
 *
 * @module
 */
import { recordedLateness, recordedSeries } from "./build_result.ts";
import { mergedContention, worstContention } from "./interval_contention.ts";
import { mergeLabelTails, mergeLatency, mergeRecordedRuns } from "../recorder/mod.ts";
import type { RecordedRun } from "../recorder/mod.ts";
import type { FailFastStop, IntervalContention, RunResult } from "../model/mod.ts";
import { usage } from "./traffic_record.ts";
import { mergeEncodedHistograms } from "../hdr/mod.ts";
import { protocolText } from "./read/mod.ts";
import { err, ok, type Problem, problem, type Result } from "../model/mod.ts";
import { mergedUnexpectedBodies } from "./unexpected_bodies.ts";

/** Shards whose starts differ by less than this are taken as started together (`--start-at`). */
export const ALIGNED_START_MS = 50;

/** The merged result and what a reader of it must know. */
export interface MergedResults {
  /** The result of the whole plan, with verdicts still empty. */
  result: RunResult;
  /**
   * What a reader of the merged result must know (shards started apart, on different machines);
   * also in `result.warnings`.
   */
  warnings: string[];
}

/**
 * Merges shard results, or says why they cannot be (one problem naming the file and the fix);
 * `names` (file names) label the problems.
 */
export function mergeResults(
  parts: readonly RunResult[],
  names: readonly string[],
): Result<MergedResults> {
  if (parts.length === 0) return err(problem("name the shard results to merge"));
  const refused = shardProblem(parts, names) ?? protocolProblem(parts, names) ??
    planProblem(parts, names);
  if (refused) return err(refused);
  const count = parts[0].run.shard!.count;
  const warnings: string[] = [];
  const startsMs = parts.map((p) => Date.parse(p.run.startedAt));
  const t0Ms = Math.min(...startsMs);
  const intervalMs = parts[0].intervals[0]?.durationMs ?? 1000;
  const spreadMs = Math.max(...startsMs) - t0Ms;
  if (spreadMs >= ALIGNED_START_MS) {
    warnings.push(
      `the shards started up to ${(spreadMs / 1000).toFixed(3)} s apart (no common --start-at): ` +
        "their per-interval data is aligned to the nearest interval of wall-clock time, and the " +
        "combined rate was not the plan's at every moment",
    );
  }
  // Each interval's contention on every shard, by the merged interval's start.
  const contentionAt = new Map<number, (IntervalContention | undefined)[]>();
  const recorded = mergeRecordedRuns(parts.map((p, i): RecordedRun => {
    const shiftMs = spreadMs < ALIGNED_START_MS
      ? 0
      : Math.round((startsMs[i] - t0Ms) / intervalMs) * intervalMs;
    return {
      stages: p.stages,
      intervals: p.intervals.map(({ contention, ...interval }) => {
        const startMs = interval.startMs + shiftMs;
        contentionAt.set(startMs, [...contentionAt.get(startMs) ?? [], contention]);
        return { ...interval, startMs };
      }),
      sendLag: p.health.sendLag,
      dispatchLag: p.health.dispatchLag,
      queueWait: p.health.queueWait,
      ...(p.health.stepLag ? { stepLag: p.health.stepLag } : {}),
      connectTime: p.health.connectTime ?? mergeEncodedHistograms([]),
      engineStall: p.health.engineStall,
      platformHiccup: p.health.platformHiccup,
    };
  }));
  // The shards' slowest requests and exemplars (results keep no bucket candidates: see there).
  recorded.stages.forEach((stage, i) =>
    stage.labels.forEach((label, l) => {
      const tails = mergeLabelTails(parts.map((p) => p.stages[i].labels[l]), label.response);
      if (tails) Object.assign(label, tails);
    })
  );
  const fingerprints = new Set(parts.map((p) => fingerprint(p)));
  if (fingerprints.size > 1) {
    warnings.push(
      `the shards ran on ${fingerprints.size} different machine or build fingerprints: ` +
        "their latencies mix, so compare the per-shard results too",
    );
  }
  // Shards run on different machines: the worst one's contention bounds what any request saw.
  recorded.intervals = recorded.intervals.map((interval) => {
    const contention = worstContention(contentionAt.get(interval.startMs) ?? []);
    return contention ? { ...interval, contention } : interval;
  });
  const series = recordedSeries(recorded);
  const contention = mergedContention(
    parts.map((p) => p.health.contention),
    series.intervals,
    series.stages,
  );
  const totals = mergeLatency(recorded.stages);
  const endMs = Math.max(...parts.map((p) => Date.parse(p.run.endedAt)));
  const cpu = {
    userMs: sum(parts, (p) => p.health.cpu.userMs),
    systemMs: sum(parts, (p) => p.health.cpu.systemMs),
  };
  const first = parts[0];
  const stop = firstStop(parts, startsMs.map((ms) => ms - t0Ms));
  const bodies = mergedUnexpectedBodies(
    first.plan.requests.map((r) => r.label),
    parts.map((p, i) => ({ bodies: p.unexpectedBodies, offsetMs: startsMs[i] - t0Ms })),
  );
  const result: RunResult = {
    ...first,
    run: {
      // The shards of one CI run share its id; shards of runs apart have none in common.
      ...(first.run.id !== undefined && parts.every((p) => p.run.id === first.run.id)
        ? { id: first.run.id }
        : {}),
      startedAt: new Date(t0Ms).toISOString(),
      endedAt: new Date(endMs).toISOString(),
      durationMs: endMs - t0Ms,
      complete: parts.every((p) => p.run.complete),
      // A shard's certain failure holds for the whole plan (it was counted against every shard's
      // requests): it comes before any other stop.
      stopReason: stop !== undefined
        ? "fail_fast"
        : parts.some((p) => p.run.stopReason === "error")
        ? "error"
        : parts.some((p) => p.run.stopReason === "interrupted")
        ? "interrupted"
        : "completed",
      ...(stop === undefined ? {} : { stoppedBy: stop }),
      mergedShards: count,
      // The shards' one protocol (protocolProblem refused any other).
      ...(first.run.protocol === undefined ? {} : { protocol: first.run.protocol }),
      ...(first.run.grpc ? { grpc: true } : {}),
      ...(first.run.maxStreams === undefined ? {} : { maxStreams: first.run.maxStreams }),
    },
    totals,
    ...series,
    health: {
      ...recordedLateness(recorded),
      connections: {
        opened: sum(parts, (p) => p.health.connections.opened),
        peak: sum(parts, (p) => p.health.connections.peak),
      },
      timerSlackSet: parts.every((p) => p.health.timerSlackSet),
      ...mergedIo(parts.map((p) => p.health.io)),
      // The shards spoke to one server under one plan: the first one's streams stand for all.
      ...(parts[0].health.http2 ? { http2: parts[0].health.http2 } : {}),
      cpu: {
        userMs: round(cpu.userMs),
        systemMs: round(cpu.systemMs),
        perRequestUs: totals.counts.completed
          ? round((cpu.userMs + cpu.systemMs) * 1000 / totals.counts.completed)
          : 0,
      },
      intendedPerSec: round(sum(parts, (p) => p.health.intendedPerSec)),
      achievedPerSec: round(sum(parts, (p) => p.health.achievedPerSec)),
      ...(contention ? { contention } : {}),
      toolLimited: parts.some((p) => p.health.toolLimited),
      reasons: parts.flatMap((p) => p.health.reasons.map((r) => `${shardName(p)}: ${r}`)),
    },
    ...mergedTraffic(parts),
    verdicts: [],
  };
  if (bodies) result.unexpectedBodies = bodies;
  else delete result.unexpectedBodies;
  delete result.baseline;
  delete result.warnings;
  const carried = parts.flatMap((p) => (p.warnings ?? []).map((w) => `${shardName(p)}: ${w}`));
  if (carried.length + warnings.length > 0) result.warnings = [...carried, ...warnings];
  return ok({ result, warnings });
}

/**
 * The first fail-fast stop among the shards, its time on the merged run's clock, naming its shard;
 * `offsetsMs` is each shard's start after the merged run's.
 */
function firstStop(
  parts: readonly RunResult[],
  offsetsMs: readonly number[],
): FailFastStop | undefined {
  const stops = parts.flatMap((p, i) => {
    const s = p.run.complete ? undefined : p.run.stoppedBy;
    return s === undefined ? [] : [{ ...s, atMs: s.atMs + offsetsMs[i], shard: p.run.shard! }];
  });
  return stops.sort((a, b) => a.atMs - b.atMs)[0];
}

/** The shards' draws added: the fleet's use of each data source. */
function mergedTraffic(parts: readonly RunResult[]): Pick<RunResult, "traffic"> {
  const first = parts[0].traffic;
  if (first === undefined) return {};
  return {
    traffic: {
      sources: first.sources.map(({ draws: _, rowsUsed: _r, wrapped: _w, ...source }, i) =>
        usage(source, sum(parts, (p) => p.traffic?.sources[i]?.draws ?? 0))
      ),
      vars: first.vars,
      lateRenders: sum(parts, (p) => p.traffic?.lateRenders ?? 0),
    },
  };
}

function shardProblem(parts: readonly RunResult[], names: readonly string[]): Problem | undefined {
  const count = parts[0].run.shard?.count;
  const seen = new Map<number, string>();
  for (const [i, p] of parts.entries()) {
    const shard = p.run.shard;
    if (shard === undefined) {
      return problem(
        `${names[i]} is not a shard's result: merge the result.json files of ` +
          "`tailgate run --shard I/N` runs",
      );
    }
    if (shard.count !== count) {
      return problem(
        `${names[i]} is shard ${shard.index}/${shard.count} but ${names[0]} is one of ${count}: ` +
          "merge the shards of one sharded run",
      );
    }
    const other = seen.get(shard.index);
    if (other !== undefined) {
      return problem(`${names[i]} and ${other} are both shard ${shard.index}/${count}`);
    }
    seen.set(shard.index, names[i]);
  }
  const missing = Array.from({ length: count! }, (_, i) => i).filter((i) => !seen.has(i));
  if (missing.length > 0) {
    return problem(
      `shard${missing.length > 1 ? "s" : ""} ${missing.map((i) => `${i}/${count}`).join(", ")} ` +
        `missing: the merged run would hold ${seen.size} of ${count} shares of the schedule`,
    );
  }
  return undefined;
}

/**
 * Shards that spoke different protocols (h2 and h2c: another --target scheme) or streams per
 * connection: their latencies are not of one run, and a merged result records one protocol.
 */
function protocolProblem(
  parts: readonly RunResult[],
  names: readonly string[],
): Problem | undefined {
  const spoke = (p: RunResult) => protocolText(p);
  const i = parts.findIndex((p) => spoke(p) !== spoke(parts[0]));
  if (i < 0) return undefined;
  return problem(
    `${names[i]} ran over ${spoke(parts[i])}, ${names[0]} over ${spoke(parts[0])}: latencies ` +
      "over different protocols are not one run's, and a merged result records one protocol; " +
      "merge the shards of one run (the same plan and --target on every machine)",
  );
}

function planProblem(parts: readonly RunResult[], names: readonly string[]): Problem | undefined {
  const planOf = (p: RunResult) => JSON.stringify({ ...p.plan, file: "" });
  const histogramsOf = (p: RunResult) => JSON.stringify(p.histograms);
  for (const [i, p] of parts.entries()) {
    const seeds = [p, parts[0]].map((r) => r.plan.load.seed);
    if (seeds[0] !== seeds[1]) {
      return problem(
        `${names[i]} drew its values from seed ${seeds[0]}, ${names[0]} from seed ${
          seeds[1]
        }: the shards of one run share one seed, or their requests overlap`,
        "give every shard the same --start-at (a plan without load.seed draws it from that " +
          "instant) or the same --seed",
      );
    }
    if (planOf(p) !== planOf(parts[0])) {
      return problem(
        `${names[i]} ran a different plan from ${names[0]} (` +
          `"${p.plan.name}" vs "${parts[0].plan.name}", or its stages, requests or SLOs differ)`,
      );
    }
    if (histogramsOf(p) !== histogramsOf(parts[0])) {
      return problem(`${names[i]} records histograms with another configuration`);
    }
  }
  return undefined;
}

function fingerprint(p: RunResult): string {
  const e = p.environment;
  return [e.tailgateVersion, e.denoVersion, e.os, e.arch, e.cpuModel, e.cores].join("|");
}

function shardName(p: RunResult): string {
  return p.run.shard ? `shard ${p.run.shard.index}/${p.run.shard.count}` : "shard";
}

function sum<T>(items: readonly T[], f: (item: T) => number): number {
  return items.reduce((total, item) => total + f(item), 0);
}

function round(n: number): number {
  return Math.round(n * 1000) / 1000;
}

/** The merged I/O path: the shards' common one, `mixed` when they differ, absent if unknown. */
function mergedIo(
  paths: (RunResult["health"]["io"])[],
): { io?: RunResult["health"]["io"] } {
  const known = new Set(paths.filter((p) => p !== undefined));
  if (known.size === 0) return {};
  return { io: known.size === 1 ? [...known][0] : "mixed" };
}
