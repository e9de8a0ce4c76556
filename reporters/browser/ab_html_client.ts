/**
 * The script the A/B page runs in the browser: base's and head's response-time curves by
 * percentile overlaid (one stage at a time), and each round's two figures for one comparison at a
 * time, drawn with the inlined chart.js. It computes nothing about the comparison. Like
 * html_client.ts, it is checked TypeScript embedded by its type-stripped source, so the function
 * must stand alone.
 *
 * @module
 */
import type { ChartGlobal, Dataset, PageDocument, TooltipItem } from "./client_globals.ts";
import type { AbChartData } from "../ab/mod.ts";

declare const document: PageDocument;
declare const Chart: ChartGlobal;

/**
 * Draws `chart-ab-curves` and `chart-ab-rounds` from the `tailgate-data` element (the selects
 * `ab-stage` and `ab-check` switch the view), and marks the page `data-charts="drawn"`.
 *
 * @example
 * ```ts
 * import { AB_CLIENT_SCRIPT } from "./ab_html_client.ts";
 * AB_CLIENT_SCRIPT.startsWith("(function abClient()"); // true
 * ```
 */
export function abClient(): void {
  "use strict";
  const data: AbChartData = JSON.parse(
    document.getElementById("tailgate-data")?.textContent ?? "null",
  );
  Chart.defaults.animation = false;
  Chart.defaults.maintainAspectRatio = false;
  const BASE = "#868e96";
  const HEAD = "#c2255c";
  function round4(v: number): number {
    return Number(v.toPrecision(4));
  }
  function fmtMs(v: number): string {
    if (v < 1) return round4(v * 1000) + "us";
    if (v < 1000) return round4(v) + "ms";
    return round4(v / 1000) + "s";
  }
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
  const curvesCanvas = document.getElementById("chart-ab-curves");
  const stageSelect = document.getElementById("ab-stage");
  if (curvesCanvas && data.curves.length) {
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
    const chart = new Chart(curvesCanvas, {
      type: "scatter",
      data: { datasets: view(0) },
      options: {
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
          y: {
            type: "logarithmic",
            title: { display: true, text: "response time (corrected)" },
            ticks: {
              callback: function (v: number) {
                const m = v / Math.pow(10, Math.floor(Math.log10(v) + 1e-9));
                return Math.abs(m - Math.round(m)) < 1e-6 && [1, 2, 5].indexOf(Math.round(m)) >= 0
                  ? fmtMs(v)
                  : "";
              },
            },
          },
        },
        plugins: {
          tooltip: {
            callbacks: {
              label: function (item: TooltipItem) {
                return item.dataset.label + ": " + fmtMs(item.parsed.y);
              },
            },
          },
        },
      },
    });
    if (stageSelect) {
      stageSelect.addEventListener("change", function () {
        chart.data.datasets = view(Number(stageSelect.value));
        chart.update();
      });
    }
  }
  const roundsCanvas = document.getElementById("chart-ab-rounds");
  const checkSelect = document.getElementById("ab-check");
  if (roundsCanvas && data.rounds.length) {
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
    const chart = new Chart(roundsCanvas, {
      type: "scatter",
      data: { datasets: view(0) },
      options: {
        scales: {
          x: { type: "linear", title: { display: true, text: "round" }, ticks: { stepSize: 1 } },
          y: { title: { display: true, text: "figure in each round" } },
        },
      },
    });
    if (checkSelect) {
      checkSelect.addEventListener("change", function () {
        chart.data.datasets = view(Number(checkSelect.value));
        chart.update();
      });
    }
  }
  document.documentElement.setAttribute("data-charts", "drawn");
}

/**
 * The page's drawing script: {@linkcode abClient}'s source, called at once.
 *
 * @example
 * ```ts
 * import { AB_CLIENT_SCRIPT } from "./ab_html_client.ts";
 * const html = `<script>${AB_CLIENT_SCRIPT}</script>`;
 * ```
 */
export const AB_CLIENT_SCRIPT: string = `(${abClient.toString()})();\n`;
