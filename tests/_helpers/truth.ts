/**
 * Helpers for the truth tests: run a plan against an in-process known-truth target and compare
 * measured percentiles with what the target is known to do.
 *
 * @module
 */
import assert from "node:assert/strict";
import { runWorkers } from "../../runner/run/run_workers.ts";
import type { EncodedHistogram } from "../../runner/model/run_result.ts";
import type { RecordedRun } from "../../runner/recorder/recorder.ts";
import { parseText } from "./plan_fixtures.ts";

/**
 * Runs a 1 s warmup (so JIT compilation and connection setup stay out of the measurement) and
 * then one constant stage against `url`, and returns what was recorded. It runs the way the CLI
 * does (`runWorkers`), on the I/O path asked for (the native one runs in a worker).
 */
export async function runAgainst(
  url: string,
  load: {
    rate: string;
    duration: string;
    connections: number;
    maxConnections?: number;
    /** HTTP/2 with this many streams per connection (`load.http: 2`, `load.max_streams`). */
    streams?: number;
    /** Engine workers (`load.workers`): 2 keeps the engines off this thread on Deno's sockets. */
    workers?: number;
  },
  io: "native" | "deno" = "deno",
  caCerts?: string[],
): Promise<RecordedRun> {
  const http2 = load.streams === undefined ? "" : `  http: 2\n  max_streams: ${load.streams}\n`;
  const { plan, issues } = parseText(`name: truth
target: ${url}
requests: [{ path: / }]
load:
${http2}  connections: ${load.connections}
  max_connections: ${load.maxConnections ?? load.connections}
${load.workers === undefined ? "" : `  workers: ${load.workers}\n`}  stages:
    - { rate: ${load.rate}, duration: 1s, warmup: true }
    - { rate: ${load.rate}, duration: ${load.duration} }
`);
  assert.ok(plan, JSON.stringify(issues));
  const run = await runWorkers({ plan, io, ...(caCerts ? { caCerts } : {}) });
  assert.equal(run.io, io);
  assert.equal(run.complete, true);
  return run.recorded;
}

/** A percentile's expected value, in milliseconds. */
export type Truth = Record<"50" | "90" | "99" | "max", number>;

/** The built-in target frozen S = 1 s at the end of every P = 5 s. */
export const STALL_TARGET_ARGS = ["--mode", "stall", "--stall", "1s", "--period", "5s"];

/**
 * The corrected response time of a steady schedule against {@linkcode STALL_TARGET_ARGS}: a
 * fraction S/P = 20% of requests arrive in a freeze and wait uniformly 0..S, so p90 = S/2,
 * p99 = 0.95·S, max = S.
 */
export const STALL_TRUTH: Truth = { "50": 0, "90": 500, "99": 950, max: 1000 };

/**
 * The percentiles (and max) of `h` that are further from `truth` than 5% or 2 ms (or the given
 * tolerances), whichever is larger; empty when every one is within.
 */
export function offTruth(
  h: EncodedHistogram,
  truth: Truth,
  toleranceFraction = 0.05,
  toleranceMs = 2,
): string[] {
  const off: string[] = [];
  for (const [key, expectedMs] of Object.entries(truth)) {
    const measuredMs = (key === "max" ? h.maxUs : h.percentilesUs[key]) / 1000;
    const tolerance = Math.max(toleranceMs, toleranceFraction * expectedMs);
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
