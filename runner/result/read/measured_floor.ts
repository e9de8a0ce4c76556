/**
 * The run's measured floor: at a percentile, the larger of the engine thread's own stalls and the
 * platform's hiccups. A latency below it at that percentile cannot be told apart from pauses that
 * were not the server's (jHiccup's reading of a hiccup histogram, seed: Gil Tene).
 *
 * @module
 */
import { decodeHistogram } from "../../hdr/mod.ts";
import type { EncodedHistogram, PlanRecord, ToolHealth } from "../../model/mod.ts";
import { storedSlos } from "./stored_slos.ts";

/** The floor at one percentile, and its two parts (us). */
export interface MeasuredFloor {
  percentile: number;
  engineStallUs: number;
  platformHiccupUs: number;
  /** max(engineStallUs, platformHiccupUs). */
  floorUs: number;
}

/**
 * A histogram's value at a percentile: the stored summary when it holds that percentile, else
 * read off the decoded histogram. 0 for an empty histogram.
 */
export function percentileOf(h: EncodedHistogram, percentile: number): number {
  if (h.count === 0) return 0;
  const stored = h.percentilesUs[String(percentile)];
  return stored ?? decodeHistogram(h.hdr).getValueAtPercentile(percentile);
}

/**
 * The floor at `percentile` (e.g. 99.9).
 */
export function measuredFloor(
  health: Pick<ToolHealth, "engineStall" | "platformHiccup">,
  percentile: number,
): MeasuredFloor {
  const engineStallUs = percentileOf(health.engineStall, percentile);
  const platformHiccupUs = percentileOf(health.platformHiccup, percentile);
  return {
    percentile,
    engineStallUs,
    platformHiccupUs,
    floorUs: Math.max(engineStallUs, platformHiccupUs),
  };
}

/**
 * The percentiles a report states the floor at: p99 and p99.9, and any other percentile from p90
 * up that a response-time SLO of the plan names (`p99.99 < 20ms`, `99.95%ile < 5ms`), ascending.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { floorPercentiles } from "./measured_floor.ts";
 * const plan = { slos: [{ text: "p99.99 < 20ms at 1k/s", line: 9 }] };
 * assert.deepEqual(floorPercentiles(plan), [99, 99.9, 99.99]);
 * ```
 */
export function floorPercentiles(plan: Pick<PlanRecord, "slos">): number[] {
  const set = new Set([99, 99.9]);
  for (const { parsed } of storedSlos(plan)) {
    if (!parsed.ok || parsed.value.metric.kind !== "percentile") continue;
    if (parsed.value.series !== undefined) continue;
    const p = parsed.value.metric.percentile;
    if (p >= 90) set.add(p);
  }
  return [...set].sort((a, b) => a - b);
}
