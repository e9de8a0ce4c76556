/**
 * The capacity search's reports: a terminal summary and a Markdown page (every step with its
 * verdict and latencies, the rate found with its bracket, the binding SLO and the gates); the HTML
 * page is search_html.ts. They read only the search document.
 *
 * @module
 */
import type { SearchResult } from "../../runner/model/mod.ts";
import { formatDurationMs, formatRatePerSec } from "../../runner/plan/mod.ts";
import { markdownTable, markdownText } from "../text/mod.ts";

/**
 * The steps as rows: rate, length, outcome, p50, p99, p99.9 and max, answers per second.
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

/** The step table's columns. */
export const SEARCH_HEADER = [
  "rate",
  "length",
  "outcome",
  "p50",
  "p99",
  "p99.9",
  "max",
  "answered",
];

/**
 * What the search found, in one line.
 */
export function searchHeadline(result: SearchResult): string {
  return `${searchFinding(result)}; verdict: ${result.verdict.status} (${result.verdict.message})`;
}

/**
 * What the search found, without the verdict.
 */
export function searchFinding(result: SearchResult): string {
  const c = result.conclusion;
  const rate = c.ratePerSec === undefined ? undefined : formatRatePerSec(c.ratePerSec);
  const found = c.status === "found"
    ? `sustainable rate ${rate} (fails at ${formatRatePerSec(c.failPerSec!)}` +
      `${c.bindingSlo ? `: ${c.bindingSlo}` : ""})`
    : c.status === "at_least"
    ? `sustainable rate at least ${rate} (the highest rate searched passed)`
    : `no sustainable rate: ${c.reason}${rate ? ` (${rate} passed)` : ""}`;
  return found;
}

/**
 * The gates, one line each: status, name and message.
 */
export function searchGateLines(result: SearchResult): string[] {
  return result.verdict.gates.map((g) => `${g.status.padEnd(12)} ${g.name}: ${g.message}`);
}

/**
 * The terminal summary: the steps as a table, then the headline.
 */
export function renderSearchTerminal(result: SearchResult): string {
  const rows = [SEARCH_HEADER, ...searchRows(result)];
  const widths = SEARCH_HEADER.map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  const lines = rows.map((r) => r.map((cell, i) => cell.padEnd(widths[i])).join("  ").trimEnd());
  return [
    `capacity search: ${result.plan.name}`,
    ...lines,
    "",
    ...searchGateLines(result),
    searchHeadline(result),
  ].join("\n");
}

/**
 * The Markdown page: headline, the step table, the settings.
 */
export function renderSearchMarkdown(result: SearchResult): string {
  const s = result.settings;
  const table = markdownTable(
    SEARCH_HEADER,
    SEARCH_HEADER.map((_, i) => i < 3 ? "left" : "right"),
    searchRows(result).map((r) => r.map((cell) => markdownText(cell))),
  );
  return [
    `## Capacity search: ${markdownText(result.plan.name)}`,
    "",
    `**${markdownText(searchHeadline(result))}**`,
    "",
    ...table,
    "",
    ...(result.verdict.gates.length
      ? [
        ...markdownTable(
          ["gate", "status", "message"],
          ["left", "left", "left"],
          result.verdict.gates.map((g) =>
            [g.name, g.status, g.message].map((c) => markdownText(c))
          ),
        ),
        "",
      ]
      : []),
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
