/**
 * How a gate value is written for people, by its unit: durations, percentages, rates.
 *
 * @module
 */
import { formatDurationMs, formatRatePerSec } from "../plan/units.ts";
import type { Verdict } from "../model/run_result.ts";

/**
 * Formats a measured value or bound in its unit.
 *
 * @example
 * ```ts
 * import { formatMetric } from "./format_metric.ts";
 * formatMetric(1500, "us"); // "1.5ms"
 * formatMetric(0.001, "fraction"); // "0.1%"
 * formatMetric(20_000, "per_sec"); // "20k/s"
 * ```
 */
export function formatMetric(value: number, unit: NonNullable<Verdict["unit"]>): string {
  if (unit === "us") return formatDurationMs(value / 1000);
  if (unit === "fraction") return `${+(value * 100).toPrecision(4)}%`;
  return formatRatePerSec(value);
}
