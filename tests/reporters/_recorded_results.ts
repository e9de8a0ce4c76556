/**
 * Results recorded through the Recorder as the engine records them, for runs the shared fixtures
 * do not cover: one shard's share of the schedule, and answers so slow that requests complete
 * after the schedule has ended (the drain).
 *
 * @module
 */
import { buildResult } from "../../runner/result/build_result.ts";
import { computeRunVerdict } from "../../runner/gates/run_verdict.ts";
import type { RunResult } from "../../runner/model/run_result.ts";
import type { ShardSpec } from "../../runner/schedule/build_schedule.ts";
import { ENVIRONMENT, resultPlan, scheduleAndRecorder } from "../_helpers/result_fixtures.ts";

/** How {@linkcode recordedResult} answers and which share of the schedule it runs. */
export interface RecordedRunOptions {
  /** Every request is written 0.5 ms late and answered this long after its intended time. */
  responseMs: number;
  /** Run only this shard of the schedule, as `tailgate run --shard I/N` does. */
  shard?: ShardSpec;
}

/**
 * The plan of `resultPlan()` (a 1 s warmup at 10/s, then 2 s at 20/s) recorded with every
 * request answered 200 after `responseMs`; the run lasts until the last answer.
 *
 * @example
 * ```ts
 * import { recordedResult } from "./_recorded_results.ts";
 * const drained = recordedResult({ responseMs: 2_500 });
 * drained.intervals.length; // 6: three seconds of schedule, then the drain
 * ```
 */
export function recordedResult(options: RecordedRunOptions): RunResult {
  const plan = resultPlan();
  const { schedule, rec } = scheduleAndRecorder(plan);
  let lastMs = schedule.durationMs;
  for (const c = schedule.cursor(options.shard); !c.done; c.advance()) {
    const { fireMs, stageIndex, labelIndex } = c;
    rec.scheduled(fireMs, stageIndex, labelIndex);
    rec.sendLag(0.5, stageIndex);
    const completedMs = fireMs + options.responseMs;
    lastMs = Math.max(lastMs, completedMs);
    rec.complete({
      stageIndex,
      labelIndex,
      fireMs,
      writtenMs: fireMs + 0.5,
      completedMs,
      status: 200,
      bytesSent: 50,
      bytesReceived: 120,
    });
  }
  const result = buildResult(plan, {
    recorded: rec.finish(lastMs),
    complete: true,
    startedAt: new Date("2025-01-02T03:04:05.000Z"),
    durationMs: lastMs,
    scheduleDurationMs: schedule.durationMs,
    scheduled: schedule.shardCount(options.shard ?? { index: 0, count: 1 }),
    cpu: { userMs: 300, systemMs: 100 },
    connections: { opened: 2, peak: 3 },
    timerSlackSet: true,
  }, ENVIRONMENT);
  if (options.shard) result.run.shard = { ...options.shard };
  result.verdict = computeRunVerdict(result);
  return result;
}
