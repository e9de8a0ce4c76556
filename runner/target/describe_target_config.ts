/**
 * The one-line summary of a target's parameters that `tailgate target` prints.
 *
 * @module
 */
import { formatDurationMs, formatRatePerSec } from "../plan/mod.ts";
import { capacityPerSec } from "./target_timing.ts";
import type { TargetConfig } from "./target_options.ts";

/**
 * One line naming the mode's parameters, e.g. `stall 2s every 10s`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { describeTargetConfig } from "./describe_target_config.ts";
 * import { TARGET_DEFAULTS } from "./target_options.ts";
 * assert.equal(describeTargetConfig({ ...TARGET_DEFAULTS, mode: "bimodal" }), "10% at 100ms, the rest at 0ms");
 * ```
 */
export function describeTargetConfig(config: TargetConfig): string {
  const ms = formatDurationMs;
  const delay = ms(config.delayMs);
  const seeded = config.seed === undefined ? "" : `, seed ${config.seed}`;
  switch (config.mode) {
    case "hello":
      return "immediate 200";
    case "fixed":
      return `every response after ${delay}`;
    case "stall":
      return `stall ${ms(config.stallMs)} every ${ms(config.periodMs)}` +
        (config.delayMs > 0 ? `, otherwise ${delay}` : "");
    case "bimodal":
      return `${percent(config.frac)} at ${ms(config.slowMs)}, the rest at ${delay}${seeded}`;
    case "trend":
      return `${delay} plus ${ms(config.growthMsPerSec)} per second since start`;
    case "first-n":
      return `first ${config.firstN} at ${delay}, then ${ms(config.slowMs)}`;
    case "capacity":
      return `${config.servers} server(s) at ${delay} each, one FIFO queue: capacity ` +
        formatRatePerSec(capacityPerSec(config));
    case "faults":
      return `${percent(config.faultFrac)} faults (${config.faultKinds.join(", ")}), ` +
        `the rest 200 at ${delay}${seeded}`;
  }
}

function percent(fraction: number): string {
  return `${Number((fraction * 100).toPrecision(4))}%`;
}
