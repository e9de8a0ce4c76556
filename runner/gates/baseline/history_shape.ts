/**
 * The shape of one long-history entry as read from a file: what is missing or of the wrong kind,
 * or a value no run could have stored (a negative count, a rate beyond any plan's), in words. Pure.
 *
 * @module
 */
import { amount, countsValues } from "../../result/result_problem.ts";
import { MAX_RATE_PER_SEC } from "../../plan/validate_load.ts";

/**
 * What is wrong with a history entry read from a file, or undefined when it has the shape of a
 * `HistoryEntry` (baseline_types.ts).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { historyEntryDamage } from "./history_shape.ts";
 * assert.equal(historyEntryDamage({ date: "2025-01-01T00:00:00Z" }), "`runner` is not a string");
 * ```
 */
export function historyEntryDamage(entry: unknown): string | undefined {
  if (!isObject(entry)) return "it is not an object";
  for (const key of ["date", "runner", "plan"]) {
    if (typeof entry[key] !== "string") return `\`${key}\` is not a string`;
  }
  for (const key of ["commit", "branch"]) {
    if (entry[key] !== undefined && typeof entry[key] !== "string") {
      return `\`${key}\` is not a string`;
    }
  }
  const marks = entry.notBaseline;
  if (
    marks !== undefined &&
    !(Array.isArray(marks) && marks.every((m) => m === "slo_failed" || m === "contended"))
  ) {
    return "`notBaseline` is not a list of `slo_failed` and `contended`";
  }
  const share = entry.contentionShare;
  if (share !== undefined && !(typeof share === "number" && share >= 0 && share <= 1)) {
    return "`contentionShare` is not a share from 0 to 1";
  }
  if (!isObject(entry.environment)) return "`environment` is not an object";
  if (!Array.isArray(entry.stages)) return "`stages` is not a list";
  for (const [i, stage] of entry.stages.entries()) {
    const damage = stageDamage(stage);
    if (damage !== undefined) return `stage ${i + 1}: ${damage}`;
  }
  return undefined;
}

function stageDamage(stage: unknown): string | undefined {
  if (!isObject(stage)) return "it is not an object";
  if (typeof stage.index !== "number" || typeof stage.name !== "string") {
    return "`index` or `name` is missing";
  }
  for (const key of ["fromPerSec", "toPerSec", "durationMs"]) {
    if (typeof stage[key] !== "number") return `\`${key}\` is not a number`;
  }
  // The values too, as `report` and `merge` check a result's: a forged count or rate is damage.
  const figures = amount(stage.durationMs, "durationMs") ??
    ["fromPerSec", "toPerSec"].map((key) => rateDamage(stage[key], key)).find(Boolean);
  if (figures) return figures;
  if (!isObject(stage.counts)) return "`counts` is not an object";
  const counts = countsValues(stage.counts, "counts");
  if (counts) return counts;
  const response = stage.response;
  if (
    !isObject(response) || typeof response.hdr !== "string" || !isObject(response.percentilesUs)
  ) {
    return "`response` is not a histogram";
  }
  const percentiles = Object.entries(response.percentilesUs).map(([p, v]) =>
    amount(v, `response.percentilesUs.${p}`)
  ).find(Boolean);
  if (percentiles) return percentiles;
  if (!Array.isArray(stage.labels)) return "`labels` is not a list";
  const bad = stage.labels.findIndex((l) =>
    !isObject(l) || typeof l.label !== "string" || !isObject(l.counts) ||
    !isObject(l.responsePercentilesUs)
  );
  if (bad >= 0) return `label ${bad + 1} lacks its name, counts or percentiles`;
  for (const [i, l] of (stage.labels as Record<string, Record<string, unknown>>[]).entries()) {
    const damage = countsValues(l.counts, "counts") ??
      Object.entries(l.responsePercentilesUs).map(([p, v]) =>
        amount(v, `responsePercentilesUs.${p}`)
      ).find(Boolean);
    if (damage) return `label ${i + 1}: ${damage}`;
  }
  return undefined;
}

/** A stored stage's rate: a finite number from 0 to the most a plan may ask. */
function rateDamage(value: unknown, key: string): string | undefined {
  return amount(value, key) ??
    ((value as number) > MAX_RATE_PER_SEC
      ? `${key} is ${value}: beyond the ${MAX_RATE_PER_SEC}/s a plan may ask`
      : undefined);
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
