/**
 * history.html: the history document as a page. The verdict, then per plan its runs, its changes
 * as a table (commits short, the full SHA in a title), each series' minimum change and why, and a
 * chart per stage, label and kind of
 * metric over the runs, with the change points marked and the SLO bounds drawn (chart.js,
 * inlined); the settings last. One self-contained file that opens from disk and fetches nothing,
 * under the same Content-Security-Policy as the run report; the tables read without JavaScript.
 *
 * @module
 */
import type { HistoryReport, PlanHistory } from "../../runner/model/mod.ts";
import {
  type Cell,
  chartJsBundle,
  escapeHtml,
  htmlCard,
  htmlPage,
  htmlTable,
  keyValueTable,
} from "../page/mod.ts";
import { browserScript, type HistoryChart } from "../browser/mod.ts";
import { CHANGE_HEADER, changeCells, changeRow, type PhrasePart } from "./change_row.ts";
import { historyChartData } from "./history_chart_data.ts";
import { runsSummary } from "./history_figures.ts";
import { shortCommit } from "../../runner/model/mod.ts";
import {
  MIN_CHANGE_HEADER,
  minChangeRows,
  settingsPairs,
  settingsText,
} from "./history_settings.ts";

/** A commit phrase as HTML: each commit short, its full SHA in the title. */
function commitsHtml(parts: PhrasePart[]): { html: string } {
  return {
    html: parts.map((p) =>
      "commit" in p
        ? `<code title="${escapeHtml(p.commit)}" style="word-break: normal">${
          escapeHtml(shortCommit(p.commit))
        }</code>`
        : escapeHtml(p.text)
    ).join(""),
  };
}

function chartHtml(chart: HistoryChart): string {
  return `<h3>${escapeHtml(chart.title)}</h3><div class="chart short"><canvas id="${chart.id}" ` +
    `role="img" aria-label="${escapeHtml(`${chart.title} over the runs`)}"></canvas></div>`;
}

function planCard(plan: PlanHistory, planIndex: number, charts: HistoryChart[]): string {
  const rows = plan.changes.map((c) => changeRow(plan, c));
  const changes = rows.length === 0
    ? `<p><strong>No change found</strong> in ${plan.runs.length} run${
      plan.runs.length === 1 ? "" : "s"
    }: every series held its level.</p>`
    : htmlTable(
      CHANGE_HEADER,
      rows.map((r) =>
        changeCells<Cell>(r, (s) => s, commitsHtml).map((cell, i) =>
          i === 3 && r.worse ? { html: escapeHtml(r.change), className: "bad" } : cell
        )
      ),
      { numeric: [6, 7], className: "changes" },
    );
  const minimums = minChangeRows(plan);
  const minimumTable = minimums.length === 0
    ? ""
    : `<h3>Minimum change per series</h3>${
      htmlTable(MIN_CHANGE_HEADER, minimums, { numeric: [2], className: "min-change" })
    }`;
  const notes = plan.notes.length === 0
    ? ""
    : `<ul class="notes">${plan.notes.map((n) => `<li>${escapeHtml(n)}</li>`).join("")}</ul>`;
  return htmlCard(
    `plan-${planIndex}`,
    plan.plan,
    `<p class="facts">${escapeHtml(runsSummary(plan))} · plan <code>${
      escapeHtml(plan.planFile)
    }</code> · history <code>${escapeHtml(plan.source)}</code></p>`,
    `${changes}${minimumTable}${notes}${
      charts.length === 0 || plan.runs.length === 0 ? "" : charts.map(chartHtml).join("\n")
    }`,
  );
}

const EXPLAIN = `<p class="explain">Each chart follows one stage (and label) over the stored ` +
  `runs, oldest left, each run named by its commit (or its date). A vertical line marks the run ` +
  `a step starts at; a shaded span, a trend. Red marks a change for the worse, green one for ` +
  `the better, grey one whose 95% interval includes no change. Dashed lines are the plan's SLO ` +
  `bounds. Latencies are corrected response times (from the intended send time); a gap is a run ` +
  `without that figure.</p>`;

/**
 * Renders history.html.
 */
export function historyHtml(report: HistoryReport): string {
  const v = report.verdict;
  const data = historyChartData(report);
  const hasLatency = data.plans.some((p) => p.charts.some((c) => c.axis === "latency"));
  const toc = report.plans.length > 1
    ? `<nav class="toc">${
      report.plans.map((p, i) => `<a href="#plan-${i}">${escapeHtml(p.plan)}</a>`).join("")
    }<a href="#settings">Settings</a></nav>`
    : "";
  const sections = [
    `<section class="banner banner-${v.status}" id="verdict">
<p class="eyebrow">tailgate history · ${
      escapeHtml(report.plans.map((p) => p.plan).join(", ") || "no plan")
    }</p>
<h1>${escapeHtml(`${v.status.toUpperCase()}: ${v.message}`)}</h1>
<p class="facts">${escapeHtml(`made ${report.generatedAt} · ${settingsText(report.settings)}`)}</p>
</section>`,
    toc,
    hasLatency
      ? `${EXPLAIN}<div class="controls"><label><input type="checkbox" id="log-latency" ` +
        `checked> logarithmic latency axis (all charts)</label></div>`
      : EXPLAIN,
    ...report.plans.map((p, i) => planCard(p, i, data.plans[i].charts)),
    report.plans.length === 0 ? `<p>No plan's history was read.</p>` : "",
    htmlCard("settings", "Settings", "", keyValueTable(settingsPairs(report.settings))),
    `<footer>tailgate ${escapeHtml(report.tailgateVersion)} · ${escapeHtml(report.schema)} v${
      escapeHtml(report.version)
    } · charts by Chart.js (MIT license), inlined</footer>`,
  ];
  return htmlPage({
    title: `${v.status.toUpperCase()}: ${
      report.plans.map((p) => p.plan).join(", ") || "no plan"
    } history · tailgate`,
    bodyHtml: sections.filter(Boolean).join("\n"),
    data,
    scripts: [chartJsBundle(), browserScript("history")],
  });
}
