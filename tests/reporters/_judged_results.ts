/**
 * Judged results for reporter tests: real result documents (gate fixtures) whose verdicts come
 * from `judge`, with or without a stored baseline history.
 *
 * @module
 */
import { appendToHistory } from "../../runner/history/history_store.ts";
import { judge } from "../../runner/api/judge.ts";
import type { RunResult } from "../../runner/model/run_result.ts";
import {
  gateResult,
  type GateResultOptions,
  scaledUs,
  type StageSpec,
} from "../_helpers/gate_fixtures.ts";

/** What a judged run looks like. */
export interface JudgedRunOptions extends GateResultOptions {
  /** Every latency scaled by this (default 1: 500..1500 µs). */
  scale?: number;
  /** Name of the judged stage (default `main`). */
  stageName?: string;
  /** Labels of the judged stage (default `GET /a`, `GET /b`). */
  labels?: [string, string];
}

/**
 * Plan "shop": a 1 s warmup at 100/s, then a 10 s stage at 1k/s over two labels (6,000 and 4,000
 * requests, the second with 10 errors), latencies 500..1500 µs × `scale`.
 *
 * @example
 * ```ts
 * import { gateRun } from "./_judged_results.ts";
 * gateRun({ slos: ["p99 < 5ms"] }).stages.length; // 2
 * ```
 */
export function gateRun(options: JudgedRunOptions = {}): RunResult {
  const scale = options.scale ?? 1;
  const [a, b] = options.labels ?? ["GET /a", "GET /b"];
  const stages: StageSpec[] = [
    {
      name: "warm",
      warmup: true,
      ratePerSec: 100,
      durationMs: 1_000,
      labels: [{ label: a, response: scaledUs(100, scale) }],
    },
    {
      name: options.stageName ?? "main",
      ratePerSec: 1_000,
      durationMs: 10_000,
      labels: [
        { label: a, response: scaledUs(6_000, scale) },
        { label: b, response: scaledUs(4_000, scale), errors: 10 },
      ],
    },
  ];
  return gateResult(stages, options);
}

/**
 * {@linkcode gateRun} judged by `judge`; with `baselineScales`, against a
 * temporary history of runs at those scales (so `result.baseline` holds the last of them).
 *
 * @example
 * ```ts
 * import { judgedRun } from "./_judged_results.ts";
 * // const result = await judgedRun({ scale: 1.3, slos: ["p99 < 5ms"] }, [1, 1.01, 0.99]);
 * ```
 */
export async function judgedRun(
  options: JudgedRunOptions = {},
  baselineScales: number[] = [],
): Promise<RunResult> {
  const result = gateRun({ startedAt: "2025-02-09T00:00:00.000Z", ...options });
  if (baselineScales.length === 0) {
    return (await judge(result)).result;
  }
  const dir = await Deno.makeTempDir({ prefix: "tailgate-reporters-" });
  try {
    for (const [i, scale] of baselineScales.entries()) {
      const past = gateRun({
        ...options,
        scale,
        startedAt: `2025-02-0${i + 1}T00:00:00.000Z`,
        environment: { gitSha: `abc${i}def` },
      });
      await appendToHistory(dir, past);
    }
    return (await judge(result, { baselineDir: dir })).result;
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/**
 * Plan "shop" without SLOs against a server that rejected every request of its judged stage
 * (10,000 unexpected statuses after a clean warmup), judged by `judge`: its one gate is the
 * implicit `error_rate <= 1% (implicit)`, failed.
 *
 * @example
 * ```ts
 * import { rejectedRun } from "./_judged_results.ts";
 * // (await rejectedRun()).verdicts[0].implicit; // true
 * ```
 */
export async function rejectedRun(): Promise<RunResult> {
  const result = gateResult([
    {
      name: "warm",
      warmup: true,
      ratePerSec: 100,
      durationMs: 1_000,
      labels: [{ label: "GET /a", response: scaledUs(100, 1) }],
    },
    {
      name: "main",
      ratePerSec: 1_000,
      durationMs: 10_000,
      labels: [{ label: "GET /a", response: scaledUs(0, 1), errors: 10_000 }],
    },
  ], { startedAt: "2025-02-09T00:00:00.000Z" });
  return (await judge(result)).result;
}

/**
 * A run 25% slower than a history of three runs ±25% apart, its SLO met: every regression check
 * beyond its floor is `inconclusive` (not enough history yet), none fails, so only regression
 * checks are undecided (`verdict.regressionOnly`).
 *
 * @example
 * ```ts
 * import { undecidedRegressionRun } from "./_judged_results.ts";
 * // (await undecidedRegressionRun()).verdict?.regressionOnly === true
 * ```
 */
export function undecidedRegressionRun(): Promise<RunResult> {
  return judgedRun({ scale: 1.25, slos: ["p99 < 5ms"] }, [1, 1.3, 0.8]);
}
