/**
 * Browser code: the A/B page's script (ab/ab_html.ts embeds it). Base's and head's response-time
 * curves by percentile overlaid (one stage at a time), and each round's two figures for one
 * comparison at a time, drawn with the inlined chart.js. It computes nothing about the comparison.
 *
 * @module
 */
import type { AbChartData } from "./ab_page_data.ts";
import type { Dataset, PageElement } from "./client_globals.ts";
import {
  chartDefaults,
  markDrawn,
  msLabel,
  newChart,
  pageData,
  pageElement,
  responseTimeAxis,
} from "./chart_kit.ts";

const BASE = "#868e96";
const HEAD = "#c2255c";

function series(label: string, points: unknown, color: string, dashed: boolean): Dataset {
  return {
    label: label,
    data: points,
    borderColor: color,
    backgroundColor: color,
    borderDash: dashed ? [7, 4] : [],
    borderWidth: 2,
    pointRadius: 0,
    showLine: true,
  };
}

/** A chart whose datasets the select switches: `view(i)` for option `i`. */
function switchable(
  canvas: PageElement,
  select: PageElement | null,
  view: (i: number) => Dataset[],
  options: Record<string, unknown>,
): void {
  const chart = newChart(canvas, { type: "scatter", data: { datasets: view(0) }, options });
  if (select) {
    select.addEventListener("change", function () {
      chart.data.datasets = view(Number(select.value));
      chart.update();
    });
  }
}

function curvesChart(data: AbChartData, canvas: PageElement): void {
  const view = function (i: number): Dataset[] {
    const c = data.curves[i];
    const xy = function (points: Array<[number, number]>) {
      return points.map(function (p) {
        return { x: p[0], y: p[1] };
      });
    };
    return [
      series("base (merged rounds)", xy(c.base), BASE, true),
      series("head (merged rounds)", xy(c.head), HEAD, false),
    ];
  };
  const labels: Record<number, string> = {};
  data.curves[0].ticks.forEach(function (t) {
    labels[t.x] = t.label;
  });
  switchable(canvas, pageElement("ab-stage"), view, {
    scales: {
      x: {
        type: "logarithmic",
        min: 1,
        max: data.curves[0].maxX,
        title: { display: true, text: "percentile" },
        ticks: {
          callback: function (v: number) {
            return labels[v] || "";
          },
        },
      },
      y: responseTimeAxis(),
    },
    plugins: {
      tooltip: {
        callbacks: {
          label: msLabel,
        },
      },
    },
  });
}

function roundsChart(data: AbChartData, canvas: PageElement): void {
  const view = function (i: number): Dataset[] {
    const r = data.rounds[i];
    const xy = function (values: number[]) {
      return values.map(function (y, k) {
        return { x: k + 1, y: y };
      });
    };
    const base = series("base (" + r.unit + ")", xy(r.base), BASE, true);
    const head = series("head (" + r.unit + ")", xy(r.head), HEAD, false);
    base.pointRadius = 5;
    head.pointRadius = 5;
    return [base, head];
  };
  switchable(canvas, pageElement("ab-check"), view, {
    scales: {
      x: { type: "linear", title: { display: true, text: "round" }, ticks: { stepSize: 1 } },
      y: { title: { display: true, text: "figure in each round" } },
    },
  });
}

/**
 * Draws `chart-ab-curves` and `chart-ab-rounds` (the selects `ab-stage` and `ab-check` switch the
 * view), and marks the page drawn.
 */
export function drawAbCharts(): void {
  const data = pageData<AbChartData>();
  chartDefaults();
  const curvesCanvas = pageElement("chart-ab-curves");
  if (curvesCanvas && data.curves.length) curvesChart(data, curvesCanvas);
  const roundsCanvas = pageElement("chart-ab-rounds");
  if (roundsCanvas && data.rounds.length) roundsChart(data, roundsCanvas);
  markDrawn();
}
