/**
 * Helpers for result tests: a plan with a secret header, a recorder run over its schedule with
 * known latencies, and the result document built from it.
 *
 * @module
 */
import type { ResolvedPlan } from "../../runner/plan/types.ts";
import { type Completion, Recorder } from "../../runner/recorder/recorder.ts";
import { buildResult, type RunRecord } from "../../runner/result/build_result.ts";
import { computeRunVerdict } from "../../runner/gates/run_verdict.ts";
import type { Environment, RunResult } from "../../runner/model/run_result.ts";
import { Schedule } from "../../runner/schedule/build_schedule.ts";
import { parseText } from "./plan_fixtures.ts";

/** The secret the plan's `${env.TOKEN}` header resolves to; it must never be stored. */
export const SECRET_TOKEN = "s3cr3t-token-value";

/**
 * Two labels, a 1 s warmup at 10/s then a 2 s stage at 20/s, a p99 SLO and a secret header.
 *
 * @example
 * ```ts
 * import { RESULT_PLAN } from "./result_fixtures.ts";
 * RESULT_PLAN.includes("${env.TOKEN}"); // true
 * ```
 */
export const RESULT_PLAN = `name: shop
target: http://127.0.0.1:8080
defaults:
  headers:
    Authorization: "Bearer \${env.TOKEN}"
requests:
  - name: GET /a
    path: /a
  - name: GET /b
    path: /b
load:
  stages:
    - { name: warm, rate: 10/s, duration: 1s, warmup: true }
    - { name: main, rate: 20/s, duration: 2s }
slo:
  - p99 < 50ms
`;

/**
 * A fixed environment fingerprint.
 *
 * @example
 * ```ts
 * import { ENVIRONMENT } from "./result_fixtures.ts";
 * ENVIRONMENT.cores; // 4
 * ```
 */
export const ENVIRONMENT: Environment = {
  tailgateVersion: "0.0.0-test",
  denoVersion: "2.9.6",
  v8Version: "0",
  os: "linux",
  arch: "x86_64",
  cpuModel: "test cpu",
  cores: 4,
};

/**
 * {@linkcode RESULT_PLAN} parsed with `TOKEN` set to {@linkcode SECRET_TOKEN}.
 *
 * @example
 * ```ts
 * import { resultPlan } from "./result_fixtures.ts";
 * resultPlan().requests.length; // 2
 * ```
 */
export function resultPlan(): ResolvedPlan {
  const { plan, issues } = parseText(RESULT_PLAN, { env: { TOKEN: SECRET_TOKEN } });
  if (!plan) throw new Error(`fixture plan is invalid: ${JSON.stringify(issues)}`);
  return plan;
}

/** How {@linkcode recordPlan} answers. */
export interface RecordOptions {
  /**
   * Answer every request with 200 at the same times (the refused ones still never written): the
   * latency histograms are then those result format 2 recorded for the failing recording, which
   * counted failures as latencies. The committed .hlog reference vectors were made from them.
   */
  everyRequestAnswered?: boolean;
  /** Each written request's first byte 1 ms after its fire time (a ttfb histogram recorded). */
  firstByte?: boolean;
  /** Label 1's every 7th request answered 429 with `Retry-After: 30` instead of 500. */
  rateLimited?: boolean;
}

/**
 * Records every request of the plan's schedule: written 0.5 ms late, answered 1 ms after the
 * write with 200, except every 10th request (refused, never written) and label 1's every 7th
 * (answered 500).
 *
 * @example
 * ```ts
 * import { recordPlan, resultPlan } from "./result_fixtures.ts";
 * const record = recordPlan(resultPlan());
 * record.scheduled; // 50
 * ```
 */
export function recordPlan(
  plan: ResolvedPlan,
  over: Partial<RunRecord> = {},
  options: RecordOptions = {},
): RunRecord {
  const failing = !options.everyRequestAnswered;
  const { schedule, rec } = scheduleAndRecorder(plan);
  const cursor = schedule.cursor();
  for (; !cursor.done; cursor.advance()) {
    const { index, fireMs, stageIndex, labelIndex } = cursor;
    rec.scheduled(fireMs, stageIndex, labelIndex);
    const refused = index % 10 === 0;
    const limited = options.rateLimited && labelIndex === 1 && index % 7 === 0;
    const c: Completion = {
      stageIndex,
      labelIndex,
      fireMs,
      writtenMs: refused ? NaN : fireMs + 0.5,
      completedMs: fireMs + (refused ? 0.25 : 1.5),
      status: failing && (refused || (labelIndex === 1 && index % 7 === 0))
        ? (refused ? 0 : limited ? 429 : 500)
        : 200,
      error: failing && refused ? "refused" : undefined,
      bytesSent: refused ? 0 : 50,
      bytesReceived: refused ? 0 : 120,
      ...(options.firstByte ? { firstByteMs: refused ? NaN : fireMs + 1 } : {}),
      ...(limited ? { retryAfterS: 30 } : {}),
    };
    if (!refused) rec.sendLag(0.5, stageIndex);
    rec.complete(c);
  }
  return {
    recorded: rec.finish(schedule.durationMs),
    complete: true,
    startedAt: new Date("2025-01-02T03:04:05.000Z"),
    durationMs: schedule.durationMs + 10,
    scheduleDurationMs: schedule.durationMs,
    scheduled: schedule.totalCount,
    cpu: { userMs: 300, systemMs: 100 },
    connections: { opened: 2, peak: 3 },
    timerSlackSet: true,
    ...over,
  };
}

/**
 * The plan's schedule and a recorder for its stages and labels, as the engine makes them.
 *
 * @example
 * ```ts
 * import { resultPlan, scheduleAndRecorder } from "./result_fixtures.ts";
 * const { schedule } = scheduleAndRecorder(resultPlan());
 * schedule.totalCount; // 50
 * ```
 */
export function scheduleAndRecorder(plan: ResolvedPlan): { schedule: Schedule; rec: Recorder } {
  const schedule = new Schedule({
    arrival: plan.load.arrival,
    seed: plan.load.seed,
    stages: plan.load.stages,
    weights: plan.requests.map((r) => r.weight),
  });
  const rec = new Recorder(
    schedule.stages,
    plan.requests.map((r) => r.label),
    plan.requests.map((r) => r.expect),
  );
  return { schedule, rec };
}

/**
 * The result document of {@linkcode recordPlan} on {@linkcode resultPlan}, as `measureRun` returns
 * it: not judged.
 *
 * @example
 * ```ts
 * import { sampleResult } from "./result_fixtures.ts";
 * sampleResult().stages.length; // 2
 * ```
 */
export function sampleResult(
  over: Partial<RunRecord> = {},
  options: RecordOptions = {},
): RunResult {
  const plan = resultPlan();
  return buildResult(plan, recordPlan(plan, over, options), ENVIRONMENT);
}

/**
 * {@linkcode sampleResult} as `tailgate run` writes it for a plan without gates: its run verdict
 * stored, which every reader reads.
 *
 * @example
 * ```ts
 * import { writtenResult } from "./result_fixtures.ts";
 * writtenResult().verdict?.summary; // "no gates"
 * ```
 */
export function writtenResult(
  over: Partial<RunRecord> = {},
  options: RecordOptions = {},
): RunResult {
  const result = sampleResult(over, options);
  result.verdict = computeRunVerdict(result);
  return result;
}
