/**
 * One row per journey and one per step, for the terminal and the Markdown summary: over the
 * measured stages (warmup left out; every stage when all are warmup), each journey's started,
 * completed and failed count, p50, p99 and max of its journey time (think excluded) and its mean
 * think; each step's completed requests, skipped steps, and p50 and p99 of its response time.
 * Journey times merge exactly across stages.
 *
 * @module
 */
import { createHistogram, decodeHistogram } from "../../runner/hdr/mod.ts";
import type { JourneyResult, RunResult } from "../../runner/model/mod.ts";
import { formatMetric } from "../../runner/result/read/mod.ts";
import { NO_FIGURE } from "./verdict_figures.ts";

/** The columns' titles, in the order of a row's fields. */
export const JOURNEY_COLUMNS = [
  "journey / step",
  "started",
  "completed",
  "failed",
  "skipped",
  "p50",
  "p99",
  "max",
  "think",
] as const;

/** One journey's row or one step's, its figures as text (`-` where a figure does not apply). */
export type JourneyRow = { [K in (typeof JOURNEY_COLUMNS)[number]]: string } & {
  /** True for a journey's own row (its steps' follow it). */
  journey: boolean;
};

/**
 * The rows of `result`'s journeys, or undefined when it ran none.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { journeyRows } from "./journey_rows.ts";
 * assert.equal(journeyRows({ stages: [{ warmup: false, labels: [] }] } as never), undefined);
 * ```
 */
export function journeyRows(result: Pick<RunResult, "stages">): JourneyRow[] | undefined {
  const measured = result.stages.filter((s) => !s.warmup);
  const stages = measured.length > 0 ? measured : result.stages;
  const first = stages.find((s) => s.journeys?.length)?.journeys;
  if (first === undefined) return undefined;
  return first.flatMap((j, i) => {
    const parts = stages.flatMap((s) => s.journeys?.[i] ? [s.journeys[i]] : []);
    return [
      journeyRow(j.name, parts),
      ...j.steps.map((step, k) => stepRow(step.label, k, parts, stages)),
    ];
  });
}

function journeyRow(name: string, parts: readonly JourneyResult[]): JourneyRow {
  const sum = (f: (p: JourneyResult) => number) => parts.reduce((n, p) => n + f(p), 0);
  const completed = sum((p) => p.completed);
  const merged = createHistogram();
  for (const p of parts) if (p.journey.count > 0) merged.add(decodeHistogram(p.journey.hdr));
  const at = (q: number) =>
    completed > 0 ? formatMetric(merged.getValueAtPercentile(q), "us") : NO_FIGURE;
  return {
    journey: true,
    "journey / step": name,
    started: String(sum((p) => p.started)),
    completed: String(completed),
    failed: String(sum((p) => p.failed)),
    skipped: NO_FIGURE,
    p50: at(50),
    p99: at(99),
    max: completed > 0 ? formatMetric(merged.maxValue, "us") : NO_FIGURE,
    think: completed > 0 ? formatMetric(sum((p) => p.thinkMs) * 1000 / completed, "us") : NO_FIGURE,
  };
}

function stepRow(
  label: string,
  k: number,
  parts: readonly JourneyResult[],
  stages: RunResult["stages"],
): JourneyRow {
  const labels = stages.flatMap((s) => s.labels.filter((l) => l.label === label));
  const merged = createHistogram();
  for (const l of labels) if (l.response.count > 0) merged.add(decodeHistogram(l.response.hdr));
  const answered = merged.totalCount > 0;
  const at = (q: number) =>
    answered ? formatMetric(merged.getValueAtPercentile(q), "us") : NO_FIGURE;
  const completed = labels.reduce((n, l) => n + l.counts.completed, 0);
  const errors = labels.reduce((n, l) => n + l.counts.completed - l.counts.ok, 0);
  return {
    journey: false,
    "journey / step": `  ${label}`,
    started: NO_FIGURE,
    completed: String(completed),
    failed: String(errors),
    skipped: String(parts.reduce((n, p) => n + p.steps[k].skipped, 0)),
    p50: at(50),
    p99: at(99),
    max: answered ? formatMetric(merged.maxValue, "us") : NO_FIGURE,
    think: NO_FIGURE,
  };
}
