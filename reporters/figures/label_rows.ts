/**
 * One row per request label, for the terminal and the Markdown summary (the HTML report has them
 * per stage): over the measured stages (warmup left out; every stage when all are warmup), each
 * label's completed requests, its failed ones by kind with each unexpected status by its code,
 * and p50 and p99 of its response time (and p99 of its time to first byte, in a result that has it),
 * read off its stages' histograms merged exactly. The
 * busiest labels first, at most {@linkcode LABEL_ROWS_SHOWN}; a plan of one label has none (its
 * stage rows say it all).
 *
 * @module
 */
import { createHistogram, decodeHistogram } from "../../runner/hdr/mod.ts";
import type { EncodedHistogram, LabelResult, RunResult } from "../../runner/model/mod.ts";
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
  /** p99 of the time to first byte, `-` when none was recorded. */
  ttfbP99: string;
}

/** The rows shown, and how many labels were left out. */
export interface LabelRows {
  rows: LabelRow[];
  hidden: number;
  /** Whether the result has times to first byte: the rows then show {@linkcode LABEL_TTFB_COLUMN}. */
  ttfb: boolean;
}

/** The columns' titles, in the order of a row's fields. */
export const LABEL_COLUMNS = ["label", "requests", "errors", "p50", "p99"] as const;

/** The title of the column after them in a result with times to first byte. */
export const LABEL_TTFB_COLUMN = "ttfb p99";

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
  const ttfb = stages.some((s) => s.ttfb !== undefined);
  return { rows: rows.slice(0, shown), hidden: Math.max(0, rows.length - shown), ttfb };
}

function labelRow(result: RunResult, label: string, parts: readonly LabelResult[]): LabelRow {
  const requests = parts.reduce((n, p) => n + p.counts.completed, 0);
  const errors = errorsInWords(result.plan, parts);
  const [p50, p99] = percentiles(parts.map((p) => p.response), [50, 99]);
  const [ttfbP99] = percentiles(parts.map((p) => p.ttfb), [99]);
  return { label, requests, errors: errors === "" ? "0" : errors, p50, p99, ttfbP99 };
}

/** The percentiles of the parts' histograms merged: a stored part's own when it is alone. */
function percentiles(
  parts: readonly (EncodedHistogram | undefined)[],
  ps: readonly (50 | 99)[],
): string[] {
  const answered = parts.filter((h): h is EncodedHistogram => h !== undefined && h.count > 0);
  if (answered.length === 0) return ps.map(() => NO_FIGURE);
  if (answered.length === 1) {
    return ps.map((p) => formatMetric(answered[0].percentilesUs[String(p)], "us"));
  }
  const merged = createHistogram();
  for (const h of answered) merged.add(decodeHistogram(h.hdr));
  return ps.map((p) => formatMetric(merged.getValueAtPercentile(p), "us"));
}
