/**
 * How a gate value is written for people, by its unit: durations, percentages, rates, slopes,
 * counts.
 *
 * @module
 */
import { formatDurationMs, formatRatePerSec, formatSlopeUsPerMin } from "../../../plan/mod.ts";
import type { Verdict } from "../../../model/mod.ts";

/**
 * Formats a measured value or bound in its unit.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatMetric } from "./format_metric.ts";
 * assert.equal(formatMetric(1500, "us"), "1.5ms");
 * assert.equal(formatMetric(0.001, "fraction"), "0.1%");
 * assert.equal(formatMetric(20_000, "per_sec"), "20k/s");
 * assert.equal(formatMetric(1_500, "us_per_min"), "1.5ms/min");
 * ```
 */
export function formatMetric(value: number, unit: NonNullable<Verdict["unit"]>): string {
  if (unit === "us") return formatDurationMs(value / 1000);
  if (unit === "fraction") return `${+(value * 100).toPrecision(4)}%`;
  if (unit === "us_per_min") return formatSlopeUsPerMin(value);
  if (unit === "count") return String(value);
  return formatRatePerSec(value);
}
