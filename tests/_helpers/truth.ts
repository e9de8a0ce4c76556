/**
 * Helpers for the truth tests: run a plan against an in-process known-truth target and compare
 * measured percentiles with what the target is known to do.
 *
 * @module
 */
import assert from "node:assert/strict";
import { runEngine } from "../../runner/engine/engine.ts";
import type { EncodedHistogram } from "../../runner/result/run_result.ts";
import type { RecordedRun } from "../../runner/recorder/recorder.ts";
import { parseText } from "./plan_fixtures.ts";

/**
 * Runs a 1 s warmup (so JIT compilation and connection setup stay out of the measurement) and
 * then one constant stage against `url`, and returns what was recorded.
 */
export async function runAgainst(
  url: string,
  load: { rate: string; duration: string; connections: number; maxConnections?: number },
): Promise<RecordedRun> {
  const { plan, issues } = parseText(`name: truth
target: ${url}
requests: [{ path: / }]
load:
  connections: ${load.connections}
  max_connections: ${load.maxConnections ?? load.connections}
  stages:
    - { rate: ${load.rate}, duration: 1s, warmup: true }
    - { rate: ${load.rate}, duration: ${load.duration} }
`);
  assert.ok(plan, JSON.stringify(issues));
  const run = await runEngine({ plan });
  assert.equal(run.complete, true);
  return run.recorded;
}

/** A percentile's expected value, in milliseconds. */
export type Truth = Record<"50" | "90" | "99" | "max", number>;

/**
 * The percentiles (and max) of `h` that are further from `truth` than 5% or 2 ms, whichever is
 * larger; empty when every one is within.
 */
export function offTruth(h: EncodedHistogram, truth: Truth): string[] {
  const off: string[] = [];
  for (const [key, expectedMs] of Object.entries(truth)) {
    const measuredMs = (key === "max" ? h.maxUs : h.percentilesUs[key]) / 1000;
    const tolerance = Math.max(2, 0.05 * expectedMs);
    if (Math.abs(measuredMs - expectedMs) > tolerance) {
      off.push(
        `${key === "max" ? "max" : `p${key}`} ${measuredMs.toFixed(2)}ms, truth ${expectedMs}ms ±${
          tolerance.toFixed(1)
        }`,
      );
    }
  }
  return off;
}
