/**
 * Slow requests for reporter tests: every stage × label of a result given its ten slowest
 * requests and four percentile exemplars, with or without trace ids, their times known.
 *
 * @module
 */
import type { RunResult, SlowRequest } from "../../runner/model/run_result.ts";

/**
 * The trace id of stage `stage`'s label `label`, its `rank`th slowest request (0 the slowest):
 * 32 hex digits that say where they come from (`…0002_01_03` → stage 2, label 1, rank 3).
 *
 * @example
 * ```ts
 * import { traceIdOf } from "./_slowest_results.ts";
 * traceIdOf(2, 1, 3); // "aaaaaaaaaaaaaaaaaaaaaaaa00020103"
 * ```
 */
export function traceIdOf(stage: number, label: number, rank: number): string {
  return "a".repeat(24) + [stage, label, rank].map((n) => String(n).padStart(2, "0")).join("")
    .padStart(8, "0");
}

/**
 * The response time of that request, in microseconds: stage 2's beat stage 1's, the second
 * label's the first's, so the slowest of the run is stage 2's second label's rank 0 (29 ms).
 *
 * @example
 * ```ts
 * import { responseUsOf } from "./_slowest_results.ts";
 * responseUsOf(2, 1, 0); // 29_000
 * ```
 */
export function responseUsOf(stage: number, label: number, rank: number): number {
  return 10_000 * stage + 5_000 * label + 4_000 - 300 * rank;
}

/**
 * The result with `slowest` and `exemplars` on every stage's labels (`traced`: with trace ids,
 * and `plan.trace` set). Rank 1 of each list answered 503, rank 2 timed out; the rest 200.
 */
export function withSlowest(result: RunResult, traced: boolean): RunResult {
  if (traced) result.plan.trace = {};
  else delete result.plan.trace;
  for (const stage of result.stages) {
    stage.labels.forEach((l, li) => {
      const request = (rank: number): SlowRequest => ({
        ...(traced ? { traceId: traceIdOf(stage.index, li, rank) } : {}),
        intendedMs: stage.startMs + 100 * rank + 7.25,
        responseUs: responseUsOf(stage.index, li, rank),
        status: rank === 2 ? 0 : rank === 1 ? 503 : 200,
        ...(rank === 2 ? { error: "timeout" as const } : {}),
      });
      l.slowest = Array.from({ length: 10 }, (_, rank) => request(rank));
      l.exemplars = ["90", "99", "99.9", "99.99"].map((percentile, i) => ({
        ...request(9 - i),
        percentile,
      }));
    });
  }
  return result;
}

/**
 * The result as one written before the slowest requests were kept: no `slowest`, no `exemplars`,
 * no `plan.trace` (the recorder keeps them in every run since).
 */
export function withoutSlowest(result: RunResult): RunResult {
  delete result.plan.trace;
  for (const stage of result.stages) {
    for (const l of stage.labels) {
      delete l.slowest;
      delete l.exemplars;
    }
  }
  return result;
}
