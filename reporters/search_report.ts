/**
 * The capacity search's reports: a terminal summary and a Markdown page (every step with its
 * verdict and latencies, the rate found with its bracket, the binding SLO and the gate). They read
 * only the search document.
 *
 * @module
 */
import type { SearchResult } from "../runner/model/search_result.ts";
import { formatDurationMs, formatRatePerSec } from "../runner/plan/units.ts";
import { escapeMarkdown, markdownTable } from "./markdown_table.ts";

/**
 * The steps as rows: rate, length, outcome, p50, p99, p99.9 and max, answers per second.
 *
 * @example
 * ```ts
 * import { searchRows } from "./search_report.ts";
 * // searchRows(result)[0] → ["1k/s", "10s", "pass", "1.2ms", ...]
 * ```
 */
export function searchRows(result: SearchResult): string[][] {
  return result.steps.map((s) => [
    `${formatRatePerSec(s.ratePerSec)}${s.soak ? " (soak)" : ""}`,
    formatDurationMs(s.durationMs),
    s.outcome,
    ms(s.responseUs.p50),
    ms(s.responseUs.p99),
    ms(s.responseUs.p999),
    ms(s.responseUs.max),
    `${s.answeredPerSec}/s`,
  ]);
}

const HEADER = ["rate", "length", "outcome", "p50", "p99", "p99.9", "max", "answered"];

/**
 * What the search found, in one line.
 *
 * @example
 * ```ts
 * import { searchHeadline } from "./search_report.ts";
 * // "sustainable rate 20k/s (fails at 21k/s: p99 < 10ms); gate: pass"
 * ```
 */
export function searchHeadline(result: SearchResult): string {
  const c = result.conclusion;
  const rate = c.ratePerSec === undefined ? undefined : formatRatePerSec(c.ratePerSec);
  const found = c.status === "found"
    ? `sustainable rate ${rate} (fails at ${formatRatePerSec(c.failPerSec!)}` +
      `${c.bindingSlo ? `: ${c.bindingSlo}` : ""})`
    : c.status === "at_least"
    ? `sustainable rate at least ${rate} (the highest rate searched passed)`
    : `no sustainable rate: ${c.reason}${rate ? ` (${rate} passed)` : ""}`;
  return `${found}; gate: ${result.verdict.status} (${result.verdict.message})`;
}

/**
 * The terminal summary: the steps as a table, then the headline.
 *
 * @example
 * ```ts
 * import { renderSearchTerminal } from "./search_report.ts";
 * // console.log(renderSearchTerminal(result));
 * ```
 */
export function renderSearchTerminal(result: SearchResult): string {
  const rows = [HEADER, ...searchRows(result)];
  const widths = HEADER.map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  const lines = rows.map((r) => r.map((cell, i) => cell.padEnd(widths[i])).join("  ").trimEnd());
  return [`capacity search: ${result.plan.name}`, ...lines, "", searchHeadline(result)].join("\n");
}

/**
 * The Markdown page: headline, the step table, the settings.
 *
 * @example
 * ```ts
 * import { renderSearchMarkdown } from "./search_report.ts";
 * // await Deno.writeTextFile("search.md", renderSearchMarkdown(result));
 * ```
 */
export function renderSearchMarkdown(result: SearchResult): string {
  const s = result.settings;
  const table = markdownTable(
    HEADER,
    HEADER.map((_, i) => i < 3 ? "left" : "right"),
    searchRows(result).map((r) => r.map((cell) => escapeMarkdown(cell))),
  );
  return [
    `## Capacity search: ${escapeMarkdown(result.plan.name)}`,
    "",
    `**${escapeMarkdown(searchHeadline(result))}**`,
    "",
    ...table,
    "",
    `Doubling from ${formatRatePerSec(s.fromPerSec)} up to ${formatRatePerSec(s.maxPerSec)}, ` +
    `then bisecting to within ${Number((s.precision * 100).toPrecision(3))}%; each step ` +
    `${formatDurationMs(s.warmupMs)} of warmup and ${formatDurationMs(s.stepMs)} measured ` +
    `(inconclusive steps repeated twice as long), a soak of ${formatDurationMs(s.soakMs)} at the ` +
    "rate found. Latencies are corrected response times (from the intended send time).",
    "",
  ].join("\n");
}

function ms(us: number): string {
  return formatDurationMs(us / 1000);
}
