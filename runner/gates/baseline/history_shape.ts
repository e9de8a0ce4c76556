/**
 * The shape of one long-history entry as read from a file: what is missing or of the wrong kind,
 * in words. Pure.
 *
 * @module
 */

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
  if (!isObject(stage.counts)) return "`counts` is not an object";
  const response = stage.response;
  if (
    !isObject(response) || typeof response.hdr !== "string" || !isObject(response.percentilesUs)
  ) {
    return "`response` is not a histogram";
  }
  if (!Array.isArray(stage.labels)) return "`labels` is not a list";
  const bad = stage.labels.findIndex((l) =>
    !isObject(l) || typeof l.label !== "string" || !isObject(l.counts) ||
    !isObject(l.responsePercentilesUs)
  );
  return bad < 0 ? undefined : `label ${bad + 1} lacks its name, counts or percentiles`;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
