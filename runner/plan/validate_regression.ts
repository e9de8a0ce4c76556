/**
 * Validates `regression`: which run-level metrics the baseline gate judges, each with the change
 * it must exceed to count (a percentage; for `error_rate`, percentage points).
 *
 * @module
 */
import type { YamlNode } from "./read/mod.ts";
import type { PlanReader } from "./read/mod.ts";
import { readSection } from "./read/mod.ts";

export { REGRESSION_METRICS } from "./read/mod.ts";

/** Reads `regression:` as metric → floor (a fraction). Listing metrics replaces the defaults. */
export function readRegression(
  reader: PlanReader,
  node: YamlNode,
): Record<string, number> | undefined {
  const s = readSection(reader, node, "regression", "regression");
  if (s === undefined) return undefined;
  const floors: Record<string, number> = {};
  for (const metric of s.entries.keys()) {
    const floor = s.get<number>(metric);
    if (floor !== undefined) floors[metric] = floor;
  }
  if (s.entries.size === 0) {
    reader.error(node, "regression", "`regression` lists no metric", "e.g. `p99: 10%`");
  }
  return floors;
}
