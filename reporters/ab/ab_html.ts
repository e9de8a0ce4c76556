/**
 * The A/B comparison's HTML page (`ab.html`): the verdict, every comparison with its change and
 * interval, the SLOs judged on head's runs, base's and head's response-time curves overlaid per
 * stage, each round's two figures per comparison (the spread the decision rests on), and the
 * rounds in the order they ran. One self-contained file (chart.js inlined) that opens from disk
 * and fetches nothing; the tables read without JavaScript.
 *
 * @module
 */
import type { AbResult } from "../../runner/model/mod.ts";
import { undecidedWarning } from "../../runner/result/read/mod.ts";
import { chartJsBundle, escapeHtml, htmlCard, htmlPage, htmlTable } from "../page/mod.ts";
import { abChartData } from "./ab_chart_data.ts";
import { browserScript } from "../browser/mod.ts";
import { AB_HEADER, abHeadline, abRows } from "./ab_report.ts";

/**
 * Renders the A/B page.
 */
export function renderAbHtml(ab: AbResult): string {
  const v = ab.verdict;
  const warning = undecidedWarning(v);
  const option = (text: string, i: number) => `<option value="${i}">${escapeHtml(text)}</option>`;
  const sections = [
    `<section class="banner banner-${v.status}" id="verdict">
<p class="eyebrow">tailgate A/B comparison · ${escapeHtml(ab.plan.name)}</p>
<h1>${escapeHtml(abHeadline(ab))}</h1>
<p class="facts">${
      escapeHtml(
        `base ${ab.targets.base.url} · head ${ab.targets.head.url} · started ${ab.startedAt}`,
      )
    }</p>
</section>`,
    warning === undefined ? "" : `<section class="warnings" id="warnings" role="alert">` +
      `<h2>Warnings</h2><ul><li>${escapeHtml(warning)}</li></ul></section>`,
    htmlCard(
      "comparisons",
      "Head against base",
      `<p class="explain">Each round ran base and head one after the other on this machine, in a ` +
        `random order. A check pairs the two runs of each round: the change is head against ` +
        `base, better or worse (for throughput a drop is worse), its 95% interval from the ` +
        `spread of the rounds. A ` +
        `<em>regression</em> is worse than the floor beyond Holm's level over all checks; ` +
        `<em>ok</em> means the interval stays within the floor; otherwise more rounds decide.</p>`,
      htmlTable(AB_HEADER, abRows(ab), { numeric: [2, 3, 4, 5, 6] }) +
        htmlTable(
          ["check", "why"],
          ab.comparisons.filter((c) => c.status !== "pass").map((c) => [c.name, c.message]),
        ),
    ),
    ab.slos.length === 0 ? "" : htmlCard(
      "slos",
      "SLOs, judged on head's runs",
      `<p class="explain">Failed when a head run failed the SLO beyond doubt, passed when every ` +
        `head run passed it.</p>`,
      htmlTable(
        ["status", "SLO", "head's runs"],
        ab.slos.map((s) => [s.status, s.name, s.perRound.join(", ")]),
      ),
    ),
    htmlCard(
      "curves",
      "Latency by percentile",
      `<p class="explain">Each stage's response times over the compared rounds, merged per side: ` +
        `base dashed grey, head solid.</p>`,
      `<div class="controls"><label>Stage <select id="ab-stage">${
        ab.distributions.map((d, i) => option(d.stageName, i)).join("")
      }</select></label></div><div class="chart"><canvas id="chart-ab-curves" role="img" ` +
        `aria-label="response time by percentile, base and head"></canvas></div>`,
    ),
    htmlCard(
      "rounds",
      "Round by round",
      `<p class="explain">One check's figure in each round, base and head: the pairs the ` +
        `decision compares. Parallel lines are a real change; crossing lines are noise.</p>`,
      `<div class="controls"><label>Check <select id="ab-check">${
        ab.comparisons.map((c, i) => option(c.name, i)).join("")
      }</select></label></div><div class="chart short"><canvas id="chart-ab-rounds" ` +
        `role="img" aria-label="each round's figure for base and head"></canvas></div>` +
        htmlTable(
          ["round", "order", "runs"],
          ab.rounds.map((r) => [
            String(r.index),
            r.order.join(" then "),
            r.runs.map((x) =>
              `${x.side}: ${x.status}${x.toolLimited ? " (tool-limited)" : ""}${
                x.complete ? "" : " (stopped)"
              } ${x.resultFile}`
            ).join("; "),
          ]),
        ),
    ),
    `<footer>tailgate ${escapeHtml(ab.environment.tailgateVersion)} · ${escapeHtml(ab.schema)} v${
      escapeHtml(ab.version)
    } · seed ${escapeHtml(ab.settings.seed)} · charts by Chart.js (MIT ` +
    `license), inlined</footer>`,
  ];
  return htmlPage({
    title: `${v.status.toUpperCase()}: ${ab.plan.name} A/B · tailgate`,
    bodyHtml: sections.filter(Boolean).join("\n"),
    data: abChartData(ab),
    scripts: [chartJsBundle(), browserScript("ab")],
  });
}
