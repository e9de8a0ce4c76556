/**
 * The measured floor in words, for every report: the engine's own stalls and the platform's
 * hiccups at p99, p99.9 and the plan's SLO percentiles, and the sentence that says what they mean.
 *
 * @module
 */
import { formatDurationMs } from "../../runner/plan/mod.ts";
import {
  floorPercentiles,
  type MeasuredFloor,
  measuredFloor,
} from "../../runner/result/read/mod.ts";
import type { RunResult } from "../../runner/model/mod.ts";

/** The floor at each reported percentile; empty when the run measured no floor (older results). */
export function floorsOf(result: RunResult): MeasuredFloor[] {
  const h = result.health;
  if (h.engineStall.count === 0 && h.platformHiccup.count === 0) return [];
  return floorPercentiles(result.plan).map((p) => measuredFloor(h, p));
}

const ms = (us: number) => formatDurationMs(us / 1000);

/**
 * The floor in one sentence, to follow a "measured floor:" label: "p99 120us, p99.9 1.2ms (engine stalls p99.9 0.9ms, platform hiccups
 * p99.9 1.2ms): below 1.2ms at p99.9 this run cannot tell the server's latency from its own
 * pauses". Undefined when the run measured no floor.
 */
export function floorSentence(result: RunResult): string | undefined {
  const floors = floorsOf(result);
  if (floors.length === 0) return undefined;
  const top = floors.find((f) => f.percentile === 99.9) ?? floors.at(-1)!;
  const at = `p${top.percentile}`;
  return `${floors.map((f) => `p${f.percentile} ${ms(f.floorUs)}`).join(", ")} ` +
    `(engine stalls ${at} ${ms(top.engineStallUs)}, platform hiccups ${at} ` +
    `${ms(top.platformHiccupUs)}): below ${ms(top.floorUs)} at ${at} this run cannot tell the ` +
    "server's latency from its own pauses";
}
