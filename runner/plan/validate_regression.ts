/**
 * Validates `regression`: which run-level metrics the baseline gate judges, each with the change
 * it must exceed to count (a percentage; for `error_rate`, percentage points).
 *
 * @module
 */
import type { YamlNode } from "./read/_yaml.ts";
import { keysOf, PLAN_LANGUAGE } from "./read/plan_language.ts";
import { join, type PlanReader } from "./read/plan_reader.ts";
import { parsePercentFraction } from "./units.ts";

export { REGRESSION_METRICS } from "./read/plan_language.ts";

/**
 * Reads `regression:` as metric → floor (a fraction). Listing metrics replaces the defaults.
 */
export function readRegression(
  reader: PlanReader,
  node: YamlNode,
): Record<string, number> | undefined {
  const f = reader.fields(node, "regression", keysOf("regression"), {
    ...PLAN_LANGUAGE.regression.synonyms,
  });
  if (f === undefined) return undefined;
  const floors: Record<string, number> = {};
  for (const [metric, entry] of f) {
    const path = join("regression", metric);
    const text = entry.value.kind === "scalar" ? String(entry.value.value) : "";
    const parsed = parsePercentFraction(text);
    if (!parsed.ok) {
      reader.error(entry.value, path, parsed.message, "write the change that counts, e.g. `10%`");
      continue;
    }
    floors[metric] = parsed.value;
  }
  if (f.size === 0) {
    reader.error(node, "regression", "`regression` lists no metric", "e.g. `p99: 10%`");
  }
  return floors;
}
