/**
 * The shape of one long-history entry as read from a file: what is missing or of the wrong kind,
 * or a value no run could have stored (a negative count, a rate beyond any plan's), in words. Pure.
 *
 * @module
 */
import { amount, countsValues } from "../result/mod.ts";
import { MAX_RATE_PER_SEC } from "../plan/mod.ts";

/**
 * What is wrong with a history entry read from a file, or undefined when it has the shape of a
 * `HistoryEntry` (history_types.ts).
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
  if (bad >= 0) return `label ${bad + 1} lacks its name, counts or percentiles`;
  // The values too, as `report` and `merge` check a result's: a forged count or rate is damage.
  const values = runStageValueDamage(stage) ??
    percentilesDamage(response.percentilesUs, "response.percentilesUs");
  if (values) return values;
  for (const [i, l] of (stage.labels as Record<string, Record<string, unknown>>[]).entries()) {
    const damage = percentilesDamage(l.responsePercentilesUs, "responsePercentilesUs");
    if (damage) return `label ${i + 1}: ${damage}`;
  }
  return undefined;
}

/**
 * What is wrong with the values of a window run's stage (its shape already checked): its rates,
 * length and counts, and its labels' counts.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { runStageValueDamage } from "./history_shape.ts";
 * const counts = { scheduled: 1, sent: 1, completed: 1, ok: 1, bytesSent: 0, bytesReceived: 0, errors: {}, statusCodes: {} };
 * const stage = { fromPerSec: 10, toPerSec: 10, durationMs: 1000, counts, labels: [{ counts }] };
 * assert.equal(runStageValueDamage(stage), undefined);
 * assert.match(runStageValueDamage({ ...stage, toPerSec: -1 })!, /^toPerSec is -1/);
 * ```
 */
export function runStageValueDamage(stage: Record<string, unknown>): string | undefined {
  const figures = amount(stage.durationMs, "durationMs") ??
    ["fromPerSec", "toPerSec"].map((key) => rateDamage(stage[key], key)).find(Boolean);
  if (figures) return figures;
  const counts = countsValues(stage.counts, "counts");
  if (counts) return counts;
  const labels = Array.isArray(stage.labels) ? stage.labels as Record<string, unknown>[] : [];
  for (const [i, l] of labels.entries()) {
    const damage = countsValues(l.counts, "counts");
    if (damage) return `label ${i + 1}: ${damage}`;
  }
  return undefined;
}

/** Each percentile a finite number from 0. */
function percentilesDamage(percentiles: Record<string, unknown>, path: string) {
  return Object.entries(percentiles).map(([p, v]) => amount(v, `${path}.${p}`)).find(Boolean);
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
