/**
 * The report's per-stage table: for each stage (and each request label when there are several),
 * requests, errors and the response and service time percentiles (and the time to first byte's,
 * in a result that has it), as read off the result; the run's outcomes, rate-limited ones too.
 *
 * @module
 */
import { formatDurationMs, formatRatePerSec } from "../../runner/plan/mod.ts";
import { errorTotal } from "../../runner/model/mod.ts";
import type {
  EncodedHistogram,
  RequestCounts,
  RunResult,
  StageResult,
} from "../../runner/model/mod.ts";
import { type Cell, escapeHtml, htmlTable } from "../page/mod.ts";
import {
  type LatencyColumn,
  latencyColumnTitle,
  latencyUs,
  messagesPerStream,
  NO_FIGURE,
  rateLimitedSentence,
  streamPhrases,
} from "../figures/mod.ts";
import { runErrorsInWords } from "../../runner/result/read/mod.ts";

/** Every summary column: p50 … p99.99 and max. */
const COLUMNS: readonly LatencyColumn[] = ["50", "90", "99", "99.9", "99.99", "max"];

/**
 * A histogram's summary cells: p50 … p99.99 and max, "-" when it is empty.
 */
export function percentileCells(h: EncodedHistogram): string[] {
  return COLUMNS.map((c) => {
    const us = latencyUs(h, c);
    return us === undefined ? NO_FIGURE : formatDurationMs(us / 1000);
  });
}

/**
 * Header cells matching {@linkcode percentileCells}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { PERCENTILE_HEADERS } from "./html_stages.ts";
 * assert.deepEqual(PERCENTILE_HEADERS, ["p50", "p90", "p99", "p99.9", "p99.99", "max"]);
 * ```
 */
export const PERCENTILE_HEADERS: readonly string[] = COLUMNS.map(latencyColumnTitle);

/**
 * The stage table.
 */
export function stageTable(result: RunResult): string {
  // A gRPC run's time to first byte is to the end of the first response message.
  const ttfbName = result.run.grpc ? "first message" : "ttfb";
  const rows: Cell[][] = [];
  for (const stage of result.stages) {
    rows.push(...groupRows(stageTitle(stage), stage.counts, stage, "stage", ttfbName));
    if (stage.labels.length > 1) {
      for (const l of stage.labels) {
        const title = `↳ ${escapeHtml(l.label)}` + streamNote(result, l.label, l.counts);
        rows.push(...groupRows({ html: title }, l.counts, l, "label", ttfbName));
      }
    }
  }
  return htmlTable(
    ["stage", "latency", "requests", "errors", ...PERCENTILE_HEADERS],
    rows,
    { numeric: [2, 3, 4, 5, 6, 7, 8, 9], className: "stages" },
  );
}

/**
 * The status codes (a gRPC run's statuses, by name) and failed requests of the whole run, in
 * words: each unexpected status by its code or name; a gRPC run's messages per stream of its
 * server-streaming labels.
 */
export function outcomeSummary(result: RunResult): string {
  const counts = result.totals.counts;
  const codes = Object.entries(counts.statusCodes).map(([code, n]) =>
    `${code} × ${n.toLocaleString("en-US")}`
  );
  const limited = rateLimitedSentence(result);
  const streams = streamPhrases(result);
  // A gRPC run's statuses are names (`UNAVAILABLE`), not codes.
  return `<p>${result.run.grpc ? "Statuses" : "Status codes"}: ${
    escapeHtml(codes.join(", ") || "none")
  }. Errors: ${escapeHtml(runErrorsInWords(result) || "none")}. ${
    limited === undefined ? "" : `Rate limited: ${escapeHtml(limited)}. `
  }${streams.length === 0 ? "" : `Streams: ${escapeHtml(streams.join(", "))}. `}${
    escapeHtml(formatBytes(counts.bytesSent))
  } sent, ${escapeHtml(formatBytes(counts.bytesReceived))} received.</p>`;
}

/** A server-streaming label's messages per stream in its row, under its name; "" for others. */
function streamNote(result: RunResult, label: string, counts: RequestCounts): string {
  const streaming = result.plan.requests.some((r) => r.label === label && r.grpc?.serverStreaming);
  const each = streaming ? messagesPerStream(counts) : undefined;
  return each === undefined ? "" : `<div class="muted">${escapeHtml(each)}</div>`;
}

function stageTitle(stage: StageResult): Cell {
  const rate = stage.kind === "ramp"
    ? `${formatRatePerSec(stage.fromPerSec)} → ${formatRatePerSec(stage.toPerSec)}`
    : formatRatePerSec(stage.fromPerSec);
  return {
    html: `<strong>${escapeHtml(stage.name)}</strong>${
      stage.warmup ? ' <span class="badge badge-none">warmup</span>' : ""
    }<div class="muted">${escapeHtml(`${rate} for ${formatDurationMs(stage.durationMs)}`)}</div>`,
  };
}

function groupRows(
  title: Cell,
  counts: RequestCounts,
  latency: { response: EncodedHistogram; service: EncodedHistogram; ttfb?: EncodedHistogram },
  kind: "stage" | "label",
  ttfbName: string,
): Cell[][] {
  const errors = errorTotal(counts);
  const muted = (name: string, h: EncodedHistogram): Cell[] =>
    ["", { html: `<span class="muted">${name}</span>` }, "", "", ...percentileCells(h)]
      .map((c, i) => i >= 4 ? { html: `<span class="muted">${escapeHtml(String(c))}</span>` } : c);
  return [
    [
      title,
      "response",
      counts.completed.toLocaleString("en-US"),
      { html: escapeHtml(errors.toLocaleString("en-US")), className: errors > 0 ? "bad" : "" },
      ...percentileCells(latency.response),
    ].map((c, i) => i === 0 ? withClass(c, `row-${kind}`) : c),
    muted("service", latency.service),
    ...(latency.ttfb === undefined ? [] : [muted(ttfbName, latency.ttfb)]),
  ];
}

function withClass(c: Cell, className: string): Cell {
  return typeof c === "object" ? { ...c, className } : { html: escapeHtml(c), className };
}

function formatBytes(bytes: number): string {
  if (bytes >= 1e9) return `${+(bytes / 1e9).toPrecision(3)} GB`;
  if (bytes >= 1e6) return `${+(bytes / 1e6).toPrecision(3)} MB`;
  if (bytes >= 1e3) return `${+(bytes / 1e3).toPrecision(3)} kB`;
  return `${bytes} B`;
}
