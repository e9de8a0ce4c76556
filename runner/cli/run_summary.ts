/**
 * The plain-text summary printed after a run: per stage, corrected response time next to service
 * time at p50 … p99.99 and max, requests and errors, and the tool's health in words.
 *
 * @module
 */
import { formatDurationMs } from "../plan/units.ts";
import { errorTotal } from "../recorder/request_counts.ts";
import type { EncodedHistogram, RunResult } from "../result/run_result.ts";

const COLUMNS = ["50", "90", "99", "99.9", "99.99"];

/**
 * Formats the summary of a result.
 *
 * @example
 * ```ts
 * import { formatRunSummary } from "./run_summary.ts";
 * // console.log(formatRunSummary(result));
 * ```
 */
export function formatRunSummary(result: RunResult): string {
  const t = result.totals.counts;
  const seconds = (result.run.durationMs / 1000).toFixed(1);
  const lines = [
    `${result.plan.name}: ${t.completed} of ${t.scheduled} requests completed in ${seconds}s, ` +
    `${errorTotal(t)} errors${
      result.run.complete ? "" : ` (stopped early: ${result.run.stopReason})`
    }`,
    "",
  ];
  const rows: string[][] = [[
    "stage",
    "latency",
    "requests",
    "errors",
    ...COLUMNS.map((c) => `p${c}`),
    "max",
  ]];
  for (const s of result.stages) {
    const name = s.warmup ? `${s.name} (warmup)` : s.name;
    rows.push([
      name,
      "response",
      String(s.counts.completed),
      String(errorTotal(s.counts)),
      ...cells(s.response),
    ]);
    rows.push(["", "service", "", "", ...cells(s.service)]);
  }
  lines.push(...table(rows));
  lines.push("");
  lines.push(
    "response = from the intended send time (corrected for coordinated omission); " +
      "service = from the actual send",
  );
  const errors = Object.entries(t.errors).filter(([, n]) => (n ?? 0) > 0);
  if (errors.length) lines.push(`errors: ${errors.map(([k, n]) => `${k} ${n}`).join(", ")}`);
  const h = result.health;
  const lag = h.sendLag.percentilesUs["99"];
  lines.push(
    `tool health: send lag p99 ${formatDurationMs((lag ?? 0) / 1000)}, ` +
      `${h.cpu.perRequestUs.toFixed(1)} us CPU/request, ` +
      `${Math.round(h.achievedPerSec)}/s sent of ${Math.round(h.intendedPerSec)}/s scheduled` +
      (h.queueWait.count > 0
        ? `; ${h.queueWait.count} requests waited for a connection (up to ` +
          `${formatDurationMs(h.queueWait.maxUs / 1000)}, counted in their response time)`
        : ""),
  );
  for (const w of result.warnings ?? []) lines.push(`WARNING: ${w}`);
  if (result.verdicts.length > 0) {
    lines.push("", "gates:");
    for (const v of result.verdicts) {
      lines.push(`  ${v.status.toUpperCase().padEnd(12)} ${v.name}: ${v.message}`);
    }
  }
  if (h.toolLimited) {
    lines.push("TOOL-LIMITED: these numbers describe tailgate's limits, not the server's:");
    for (const r of h.reasons) lines.push(`  - ${r}`);
  }
  return lines.join("\n");
}

function cells(h: EncodedHistogram): string[] {
  if (h.count === 0) return [...COLUMNS.map(() => "-"), "-"];
  return [...COLUMNS.map((c) => us(h.percentilesUs[c])), us(h.maxUs)];
}

function us(value: number | undefined): string {
  return value === undefined ? "-" : formatDurationMs(value / 1000);
}

function table(rows: string[][]): string[] {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return rows.map((r) =>
    r.map((cell, i) => (i < 2 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join("  ")
      .trimEnd()
  );
}
