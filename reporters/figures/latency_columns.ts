/**
 * The latency columns reports show (percentiles and max) and how each is read off a stored
 * histogram's summary.
 *
 * @module
 */
import type { EncodedHistogram } from "../../runner/model/mod.ts";

/** A percentile as the result writes it (`"99.9"`), or `"max"`. */
export type LatencyColumn = "50" | "90" | "99" | "99.9" | "99.99" | "max";

/** The key columns: p50, p90, p99, p99.9 and max. */
export const KEY_LATENCY_COLUMNS: readonly LatencyColumn[] = ["50", "90", "99", "99.9", "max"];

/**
 * The column's title: `p99.9`, `max`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { latencyColumnTitle } from "./latency_columns.ts";
 * assert.equal(latencyColumnTitle("99.9"), "p99.9");
 * ```
 */
export function latencyColumnTitle(column: LatencyColumn): string {
  return column === "max" ? "max" : `p${column}`;
}

/**
 * The column's value in microseconds, or undefined when the histogram is empty or lacks it.
 */
export function latencyUs(h: EncodedHistogram, column: LatencyColumn): number | undefined {
  if (h.count === 0) return undefined;
  return column === "max" ? h.maxUs : h.percentilesUs[column];
}
