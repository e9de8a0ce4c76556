/**
 * The capacity search's HTML page (`search.html`): the verdict, the gates, latency against the
 * rate tried (chart.js, inlined), every step as a table, and the settings. One self-contained
 * file that opens from disk and fetches nothing; the tables read without JavaScript.
 *
 * @module
 */
import type { SearchResult } from "../../runner/model/mod.ts";
import { formatDurationMs, formatRatePerSec } from "../../runner/plan/mod.ts";
import {
  chartJsBundle,
  escapeHtml,
  htmlCard,
  htmlPage,
  htmlTable,
  keyValueTable,
} from "../page/mod.ts";
import { searchChartData } from "./search_chart_data.ts";
import { browserScript } from "../browser/mod.ts";
import { SEARCH_HEADER, searchFinding, searchRows } from "./search_report.ts";

/**
 * Renders the search page.
 */
export function renderSearchHtml(result: SearchResult): string {
  const v = result.verdict;
  const s = result.settings;
  const banner = `<section class="banner banner-${v.status}" id="verdict">
<p class="eyebrow">tailgate capacity search · ${escapeHtml(result.plan.name)}</p>
<h1>${escapeHtml(`${v.status.toUpperCase()}: ${searchFinding(result)}`)}</h1>
<p class="facts">${
    escapeHtml(
      `${v.message} · ${result.steps.length} steps · started ${result.startedAt} · ended ${result.endedAt}` +
        (result.complete ? "" : " · stopped before it concluded"),
    )
  }</p>
</section>`;
  const gates = v.gates.length === 0
    ? `<p>No gate: add e.g. <code>sustainable_rate &gt;= 20k/s</code> to the plan's SLOs, or ` +
      `judge against the plan's history with <code>--baseline</code>.</p>`
    : htmlTable(
      ["gate", "status", "bound", "message"],
      v.gates.map((g) => [
        g.name,
        g.status,
        g.bound === undefined ? "–" : formatRatePerSec(g.bound),
        g.message,
      ]),
    );
  const sections = [
    banner,
    htmlCard(
      "gates",
      "Gates",
      `<p class="explain">A <code>sustainable_rate</code> gate passes when a rate at or above ` +
        `its bound held, and fails when a rate at or below it broke the SLOs. Against the ` +
        `history, the rate found is a regression when even the lowest failing rate is below ` +
        `what the plan's past searches on this machine allow.</p>`,
      gates,
    ),
    htmlCard(
      "chart",
      "Latency against rate",
      `<p class="explain">Each point is one rate tried (the last run of it, when it was ` +
        `repeated), its outline the step's outcome: green passed, red failed, orange ` +
        `inconclusive, grey tailgate's own limit. The green band runs from the highest rate ` +
        `that held to the lowest that failed: the sustainable rate lies in it. Dashed lines are ` +
        `the plan's latency SLOs. Latencies are corrected response times, from the intended ` +
        `send time.</p>`,
      `<div class="chart"><canvas id="chart-search" role="img" aria-label="response time ` +
        `percentiles against the rate tried"></canvas></div><noscript><p class="noscript">The ` +
        `chart needs JavaScript; the table holds the same numbers.</p></noscript>`,
    ),
    htmlCard(
      "steps",
      "Steps",
      "",
      htmlTable(SEARCH_HEADER, searchRows(result), { numeric: [3, 4, 5, 6, 7] }) +
        htmlTable(
          ["rate", "summary"],
          result.steps.map((x) => [formatRatePerSec(x.ratePerSec), x.summary]),
        ),
    ),
    htmlCard(
      "settings",
      "Settings",
      "",
      keyValueTable([
        ["from", formatRatePerSec(s.fromPerSec)],
        ["max", formatRatePerSec(s.maxPerSec)],
        ["step", formatDurationMs(s.stepMs)],
        ["warmup", formatDurationMs(s.warmupMs)],
        ["cooldown", formatDurationMs(s.cooldownMs)],
        ["precision", `${Number((s.precision * 100).toPrecision(3))}%`],
        ["soak", formatDurationMs(s.soakMs)],
      ]),
    ),
    `<footer>tailgate ${escapeHtml(result.environment.tailgateVersion)} · search format ` +
    `${escapeHtml(result.schema)} v${escapeHtml(result.version)} · charts by Chart.js (MIT ` +
    `license), inlined</footer>`,
  ];
  return htmlPage({
    title: `${v.status.toUpperCase()}: ${result.plan.name} capacity search · tailgate`,
    bodyHtml: sections.join("\n"),
    data: searchChartData(result),
    scripts: [chartJsBundle(), browserScript("search")],
  });
}
