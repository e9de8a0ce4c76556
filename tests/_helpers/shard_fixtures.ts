/**
 * Shard results of one plan, recorded with latencies that depend only on each request's global
 * index: merging shards must give exactly what recording every request in one place gives.
 *
 * @module
 */
import assert from "node:assert/strict";
import type { Completion } from "../../runner/recorder/recorder.ts";
import { buildResult } from "../../runner/result/build_result.ts";
import type { RunResult } from "../../runner/model/run_result.ts";
import type { ResolvedPlan } from "../../runner/plan/types.ts";
import type { ShardSpec } from "../../runner/schedule/build_schedule.ts";
import { ENVIRONMENT, scheduleAndRecorder } from "./result_fixtures.ts";
import { parseText } from "./plan_fixtures.ts";

/** Two labels, a warmup, a poisson ramp and a constant stage, one SLO. */
export const SHARD_PLAN = `name: sharded
target: http://127.0.0.1:8080
requests:
  - { name: GET /a, path: /a, weight: 3 }
  - { name: GET /b, path: /b }
load:
  arrival: poisson
  stages:
    - { name: warm, rate: 100/s, duration: 1s, warmup: true }
    - { name: ramp, ramp: 100/s -> 900/s, over: 3s }
    - { name: hold, rate: 900/s, duration: 2s }
slo:
  - p99 < 80ms
`;

/**
 * {@linkcode SHARD_PLAN}, parsed.
 *
 * @example
 * ```ts
 * import { shardPlan } from "./shard_fixtures.ts";
 * shardPlan().stages.length; // 3
 * ```
 */
export function shardPlan(): ResolvedPlan {
  const parsed = parseText(SHARD_PLAN);
  assert.ok(parsed.plan, JSON.stringify(parsed.issues));
  return parsed.plan;
}

/**
 * The result of recording the requests of `shard` (or all of them) with latencies that depend only on the
 * request's global index, so every request has the same latency whichever recorder sees it.
 * `firstByte`: each request's first byte a quarter of its service time after its write, and every
 * 150th request answered 429 with `Retry-After` 1 to 5 s.
 */
export function recordShard(
  p: ResolvedPlan,
  shard?: ShardSpec,
  startedAt = "2026-01-01T00:00:00.000Z",
  failEvery = 200,
  firstByte = false,
): RunResult {
  const { schedule, rec } = scheduleAndRecorder(p);
  const cursor = schedule.cursor(shard);
  for (; !cursor.done; cursor.advance()) {
    const { index, fireMs, stageIndex, labelIndex } = cursor;
    rec.scheduled(fireMs, stageIndex, labelIndex);
    // A heavy tail: most requests 1-3 ms, every 97th 40-70 ms; every `failEvery`th a 500.
    const serviceMs = index % 97 === 0 ? 40 + (index % 31) : 1 + (index * 7919 % 2000) / 1000;
    const lagMs = (index % 13) / 10;
    rec.sendLag(lagMs, stageIndex);
    const c: Completion = {
      stageIndex,
      labelIndex,
      fireMs,
      n: index,
      step: 0,
      writtenMs: fireMs + lagMs,
      completedMs: fireMs + lagMs + serviceMs,
      status: index % failEvery === 0 ? 500 : firstByte && index % 150 === 0 ? 429 : 200,
      bytesSent: 40,
      bytesReceived: 100,
      ...(firstByte
        ? { firstByteMs: fireMs + lagMs + serviceMs / 4, retryAfterS: 1 + index % 5 }
        : {}),
    };
    rec.complete(c);
  }
  const result = buildResult(p, {
    recorded: rec.finish(schedule.durationMs),
    complete: true,
    startedAt: new Date(startedAt),
    durationMs: schedule.durationMs + 5,
    scheduleDurationMs: schedule.durationMs,
    scheduled: shard ? schedule.shardCount(shard) : schedule.totalCount,
    cpu: { userMs: 100, systemMs: 20 },
    connections: { opened: 2, peak: 2 },
    timerSlackSet: true,
  }, ENVIRONMENT);
  if (shard) result.run.shard = { ...shard };
  return result;
}

/**
 * The results of all `count` shards, optionally started at different times, every `failEvery`th
 * request answered 500 (default 200: 0.5% of them).
 *
 * @example
 * ```ts
 * import { shardPlan, shardResults } from "./shard_fixtures.ts";
 * shardResults(shardPlan(), 4).length; // 4
 * ```
 */
export function shardResults(
  p: ResolvedPlan,
  count: number,
  startedAt?: (i: number) => string,
  failEvery?: number,
): RunResult[] {
  return Array.from(
    { length: count },
    (_, index) => recordShard(p, { index, count }, startedAt?.(index), failEvery),
  );
}
