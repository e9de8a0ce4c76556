/**
 * One row per request label, for the terminal and the Markdown summary (the HTML report has them
 * per stage): over the measured stages (warmup left out; every stage when all are warmup), each
 * label's completed requests, its failed ones by kind with each unexpected status by its code,
 * and p50 and p99 of its response time, read off its stages' histograms merged exactly. The
 * busiest labels first, at most {@linkcode LABEL_ROWS_SHOWN}; a plan of one label has none (its
 * stage rows say it all).
 *
 * @module
 */
import { createHistogram, decodeHistogram } from "../../runner/hdr/mod.ts";
import type { LabelResult, RunResult } from "../../runner/model/run_result.ts";
import { errorsInWords, formatMetric } from "../../runner/result/read/mod.ts";
import { NO_FIGURE } from "./verdict_figures.ts";

/** How many labels the terminal and the Markdown summary list, the busiest first. */
export const LABEL_ROWS_SHOWN = 20;

/** One label's row, its figures as text. */
export interface LabelRow {
  label: string;
  /** Completed requests (answered or failed). */
  requests: number;
  /** Failed requests by kind, each unexpected status by its code (`401 × 3`), or `0`. */
  errors: string;
  /** p50 and p99 of the response time (corrected), `-` when nothing was answered. */
  p50: string;
  p99: string;
}

/** The rows shown, and how many labels were left out. */
export interface LabelRows {
  rows: LabelRow[];
  hidden: number;
}

/** The columns' titles, in the order of a row's fields. */
export const LABEL_COLUMNS = ["label", "requests", "errors", "p50", "p99"] as const;

/**
 * The label rows of `result`, at most `shown` of them (the busiest), or undefined when its plan
 * has one label.
 */
export function labelRows(result: RunResult, shown = LABEL_ROWS_SHOWN): LabelRows | undefined {
  const measured = result.stages.filter((s) => !s.warmup);
  const stages = measured.length > 0 ? measured : result.stages;
  const names = [...new Set(stages.flatMap((s) => s.labels.map((l) => l.label)))];
  if (names.length < 2) return undefined;
  const rows = names.map((label) => {
    const parts = stages.flatMap((s) => s.labels.filter((l) => l.label === label));
    return labelRow(result, label, parts);
  });
  // The busiest first; a sort keeps the plan's order among equals.
  rows.sort((a, b) => b.requests - a.requests);
  return { rows: rows.slice(0, shown), hidden: Math.max(0, rows.length - shown) };
}

function labelRow(result: RunResult, label: string, parts: readonly LabelResult[]): LabelRow {
  const requests = parts.reduce((n, p) => n + p.counts.completed, 0);
  const errors = errorsInWords(result.plan, parts);
  const [p50, p99] = percentiles(parts, [50, 99]);
  return { label, requests, errors: errors === "" ? "0" : errors, p50, p99 };
}

/** The percentiles of the parts' response times merged: a stored part's own when it is alone. */
function percentiles(parts: readonly LabelResult[], ps: readonly (50 | 99)[]): string[] {
  const answered = parts.filter((p) => p.response.count > 0);
  if (answered.length === 0) return ps.map(() => NO_FIGURE);
  if (answered.length === 1) {
    return ps.map((p) => formatMetric(answered[0].response.percentilesUs[String(p)], "us"));
  }
  const merged = createHistogram();
  for (const p of answered) merged.add(decodeHistogram(p.response.hdr));
  return ps.map((p) => formatMetric(merged.getValueAtPercentile(p), "us"));
}
