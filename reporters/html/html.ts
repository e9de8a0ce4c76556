/**
 * The self-contained HTML report: one file holding the verdict, the gate table (failing gates
 * first, right under the verdict), the charts (latency by percentile, with the slowest requests
 * and their trace ids under it; latency and throughput over time; latency against rate for
 * ramps), the stage, tool-health, plan, traffic (a templated plan's data and vars) and
 * environment tables, chart.js and the data. It opens from disk and makes no network request;
 * the tables read without JavaScript.
 *
 * @module
 */
import {
  checkLines,
  floorSentence,
  sentRateNote,
  STEP_COLUMNS,
  stepRows,
  STEPS_INTRO,
  timeDomainLines,
} from "../figures/mod.ts";
import type { RunResult } from "../../runner/model/mod.ts";
import { chartJsBundle, escapeHtml, htmlCard, htmlPage, htmlTable } from "../page/mod.ts";
import { browserScript, type ChartData } from "../browser/mod.ts";
import { buildChartData } from "./html_data.ts";
import { environmentTable, toolHealthPanel } from "./html_health.ts";
import { planSummary } from "./html_plan.ts";
import { outcomeSummary, stageTable } from "./html_stages.ts";
import { JOURNEYS_INTRO, journeyTable } from "./html_journeys.ts";
import { gateSlowest, slowestPanel } from "./html_slowest.ts";
import { UNEXPECTED_TITLE, unexpectedPanel } from "./html_unexpected.ts";
import { TRAFFIC_INTRO, trafficPanel } from "./html_traffic.ts";
import { bannerStatus, gateTable, verdictBanner, warningsBox } from "./html_verdicts.ts";

const NOSCRIPT = `<noscript><p class="noscript">Charts need JavaScript; the tables hold the same ` +
  `numbers.</p></noscript>`;

const LATENCY_TERMS = `<strong>Response time</strong> counts from the moment a request was ` +
  `<em>scheduled</em> to be sent, so time spent waiting behind a slow or stalled server is included ` +
  `(corrected for coordinated omission). <strong>Service time</strong> counts from the moment it was ` +
  `actually sent. Where response time rises far above service time, requests were queueing.`;

/**
 * Renders the report of a result as one HTML document. Pure: reads only the result (and the
 * installed chart.js bundle, once per process).
 */
export function renderHtml(result: RunResult): string {
  const data = buildChartData(result);
  const status = bannerStatus(result);
  const sent = sentRateNote(result);
  const unexpected = unexpectedPanel(result);
  const journeys = journeyTable(result);
  // What failed leads: the verdict, then the gates (failing first, the explanation after them),
  // so a failing gate is on the first screen even of a phone; the warnings qualify them next.
  const sections = [
    verdictBanner(result),
    htmlCard(
      "gates",
      "Gates",
      "",
      gateTable(result.verdicts, (v) => gateSlowest(result, v)) + gatesIntro(),
    ),
    warningsBox(result),
    unexpected === "" ? "" : htmlCard("unexpected", UNEXPECTED_TITLE, "", unexpected),
    toc(
      data.ramp !== undefined,
      result.traffic !== undefined,
      (result.steps?.length ?? 0) > 0,
      unexpected !== "",
      journeys !== "",
    ),
    htmlCard(
      "percentiles",
      "Latency by percentile",
      percentileIntro(result),
      percentileChart(data) + slowestPanel(result),
    ),
    htmlCard(
      "stages",
      "Stages",
      `<p class="explain">Percentiles per stage, read off the full histograms. ${LATENCY_TERMS}</p>`,
      stageTable(result) + outcomeSummary(result),
    ),
    journeys === "" ? "" : htmlCard("journeys", "Journeys", JOURNEYS_INTRO, journeys),
    data.timeline === undefined ? "" : htmlCard(
      "timeline",
      "Over time",
      `<p class="explain">One point per second (requests are filed by their scheduled send ` +
        `time, so a stall shows in the seconds it hit). Dashed lines mark stage boundaries; a ` +
        `grey band is warmup; a red triangle marks a stall the analysis found (a second with ` +
        `nothing answered, or a max over 5x the stage's median and 20 ms)${
          data.timeline.windows.length > 0
            ? "; a red band along the foot marks the windows in which a windowed SLO failed"
            : ""
        }. The rate chart shows the plan's intended rate against what was ` +
        `sent and completed, with errors on the right axis.</p>` + findings(result) +
        checksList(result),
      `<h3>Latency</h3><div class="chart"><canvas id="chart-timeline-latency" role="img" ` +
        `aria-label="p50, p99 and max response time per second"></canvas></div>` +
        `<h3>Throughput and errors</h3><div class="chart short"><canvas ` +
        `id="chart-timeline-throughput" role="img" aria-label="requests per second and errors ` +
        `per second over time"></canvas></div>${NOSCRIPT}` +
        (sent === undefined
          ? ""
          : `<p class="explain" id="sent-rate-note">${escapeHtml(sent)}</p>`),
    ),
    data.ramp === undefined ? "" : htmlCard(
      "ramp",
      "Latency against rate",
      `<p class="explain">During the ramp stage${data.ramp.stageNames.length > 1 ? "s" : ""} ${
        data.ramp.stageNames.map((n) => `<strong>${escapeHtml(n)}</strong>`).join(", ")
      } the rate grew second by second: each point is one second's response time at that ` +
        `second's intended rate. A p99 that climbs with the rate and stays up points at the ` +
        `server's limit (<code>tailgate search</code> finds it); spikes that come and go at any rate are ` +
        `stalls, which the time chart places in time.</p>`,
      `<div class="chart"><canvas id="chart-ramp" role="img" aria-label="response time ` +
        `percentiles against intended rate"></canvas></div>${NOSCRIPT}`,
    ),
    htmlCard(
      "health",
      "Tool health",
      `<p class="explain">Could tailgate keep to its schedule, and how late was it itself? ` +
        `Every latency above includes the load generator's own delays; each gate counts them at ` +
        `its percentile (late sends plus the measured floor), so a gate they could explain is ` +
        `inconclusive, never failed, and a generator that fell behind passes no gate.</p>`,
      toolHealthPanel(result.health, floorSentence(result), result),
    ),
    htmlCard("plan", "Plan", "", planSummary(result.plan)),
    result.traffic === undefined
      ? ""
      : htmlCard("traffic", "Traffic", TRAFFIC_INTRO, trafficPanel(result.traffic)),
    result.steps?.length
      ? htmlCard(
        "steps",
        "Setup and teardown",
        `<p class="explain">${escapeHtml(STEPS_INTRO)}</p>`,
        htmlTable([...STEP_COLUMNS], stepRows(result.steps)),
      )
      : "",
    htmlCard("environment", "Environment", "", environmentTable(result.environment)),
    `<footer>tailgate ${escapeHtml(result.environment.tailgateVersion)} · result format ` +
    `${escapeHtml(result.schema)} v${escapeHtml(result.version)} · run ` +
    `${escapeHtml(result.run.startedAt)} – ${escapeHtml(result.run.endedAt)} · charts by ` +
    `Chart.js (MIT license), inlined</footer>`,
  ];
  return htmlPage({
    title: `${status === "none" ? "report" : status.toUpperCase()}: ${result.plan.name} · tailgate`,
    bodyHtml: sections.filter(Boolean).join("\n"),
    data,
    scripts: [chartJsBundle(), browserScript("run")],
  });
}

/** Each check of each label: how many of its evaluations failed, or nothing without checks. */
function checksList(result: RunResult): string {
  const { items } = checkLines(result, Infinity);
  const li = (c: (typeof items)[number]) =>
    `<li>${c.failed} of ${c.evaluated} <code>${escapeHtml(c.text)}</code> failed on <code>${
      escapeHtml(c.label)
    }</code></li>`;
  return items.length === 0
    ? ""
    : `<h3>Checks</h3><ul class="checks">${items.map(li).join("")}</ul>`;
}

/** The time-domain findings (trends, stalls, two modes) as a list, or nothing when there are none. */
function findings(result: RunResult): string {
  const lines = timeDomainLines(result);
  return lines.length === 0
    ? ""
    : `<ul class="findings">${lines.map((l) => `<li>${escapeHtml(l)}</li>`).join("")}</ul>`;
}

function toc(
  hasRamp: boolean,
  hasTraffic: boolean,
  hasSteps: boolean,
  hasUnexpected: boolean,
  hasJourneys: boolean,
): string {
  const links: Array<[string, string]> = [
    ["gates", "Gates"],
    ...(hasUnexpected ? [["unexpected", UNEXPECTED_TITLE] as [string, string]] : []),
    ["percentiles", "Latency by percentile"],
    ["stages", "Stages"],
    ...(hasJourneys ? [["journeys", "Journeys"] as [string, string]] : []),
    ["timeline", "Over time"],
    ...(hasRamp ? [["ramp", "Latency against rate"] as [string, string]] : []),
    ["health", "Tool health"],
    ["plan", "Plan"],
    ...(hasTraffic ? [["traffic", "Traffic"] as [string, string]] : []),
    ...(hasSteps ? [["steps", "Setup and teardown"] as [string, string]] : []),
    ["environment", "Environment"],
  ];
  return `<nav class="toc">${
    links.map(([id, text]) => `<a href="#${id}">${text}</a>`).join("")
  }</nav>`;
}

function gatesIntro(): string {
  return `<p class="explain">Each gate compares one measured value with its bound. ` +
    `<em>Margin</em> is the headroom relative to the bound (or how far over it is). The 95% ` +
    `confidence interval shows how much a percentile could move on a rerun. A gate fails when ` +
    `the whole interval, less what the generator may have added, is beyond the bound, and passes ` +
    `when the whole interval is within it. <em>Inconclusive</em>: the run cannot decide (the ` +
    `bound lies inside the interval, the generator's own delays could explain the excess, or it ` +
    `fell behind its schedule); the gate says which and what would decide it. ` +
    `<em>Invalid</em>: the gate or the run could not be judged.</p>`;
}

function percentileIntro(result: RunResult): string {
  const b = result.baseline;
  const baseline = b === undefined
    ? ""
    : ` Grey dashed curves: the baseline, the newest of ${b.runs} stored run${
      b.runs === 1 ? "" : "s"
    } (${escapeHtml(b.date)}${b.gitSha ? `, commit ${escapeHtml(b.gitSha.slice(0, 12))}` : ""}).`;
  return `<p class="explain">The whole latency distribution: left is the median, each step right ` +
    `adds a nine (90%, 99%, 99.9%, …), the last point is the slowest request. ${LATENCY_TERMS} ` +
    `Diamonds mark the latency SLOs at their percentile and bound (green passed, red failed).` +
    `${baseline}</p>`;
}

function percentileChart(data: ChartData): string {
  const options = data.percentile.views.map((v, i) =>
    `<option value="${i}">${escapeHtml(v.title)}</option>`
  ).join("");
  return `<div class="controls"><label>Show <select id="percentile-view">${options}</select>` +
    `</label><label><input type="checkbox" id="log-latency" checked> logarithmic latency axis ` +
    `(all charts)</label></div><div class="chart"><canvas id="chart-percentile" role="img" ` +
    `aria-label="latency by percentile"></canvas></div>${NOSCRIPT}`;
}
