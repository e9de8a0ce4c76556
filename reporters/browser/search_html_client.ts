/**
 * The script the capacity search's HTML page runs in the browser: it draws the latencies of every
 * rate tried against that rate with the inlined chart.js, the bracket the search found as a band
 * and the latency SLOs as dashed bounds. It computes nothing about the search. Like
 * html_client.ts, it is checked TypeScript embedded by its type-stripped source, so the function
 * must stand alone.
 *
 * @module
 */
import type {
  ChartGlobal,
  ChartLike,
  Dataset,
  PageDocument,
  TooltipItem,
} from "./client_globals.ts";
import type { SearchChartData, SearchPoint } from "../search/mod.ts";

declare const document: PageDocument;
declare const Chart: ChartGlobal;

/**
 * Draws the search chart into `chart-search` from the `tailgate-data` element, and marks the page
 * `data-charts="drawn"`.
 *
 * @example
 * ```ts
 * import { SEARCH_CLIENT_SCRIPT } from "./search_html_client.ts";
 * SEARCH_CLIENT_SCRIPT.startsWith("(function searchClient()"); // true
 * ```
 */
export function searchClient(): void {
  "use strict";
  const data: SearchChartData = JSON.parse(
    document.getElementById("tailgate-data")?.textContent ?? "null",
  );
  const canvas = document.getElementById("chart-search");
  if (!canvas) return;
  const SERIES: Array<
    { key: "p50Ms" | "p99Ms" | "p999Ms" | "maxMs"; id: string; label: string; color: string }
  > = [
    { key: "p50Ms", id: "p50", label: "p50", color: "#1971c2" },
    { key: "p99Ms", id: "p99", label: "p99", color: "#e8590c" },
    { key: "p999Ms", id: "p999", label: "p99.9", color: "#7048e8" },
    { key: "maxMs", id: "max", label: "max", color: "#c2255c" },
  ];
  const OUTCOME: Record<string, string> = {
    pass: "#2f9e44",
    fail: "#e03131",
    inconclusive: "#e8590c",
    limited: "#868e96",
  };
  function round4(v: number): number {
    return Number(v.toPrecision(4));
  }
  function fmtMs(v: number): string {
    if (v < 1) return round4(v * 1000) + "us";
    if (v < 1000) return round4(v) + "ms";
    return round4(v / 1000) + "s";
  }
  // A log axis labels only round values: the leading digit alone (200, 300) or, with `few`, 1, 2, 5.
  function nice(v: number, few: boolean): boolean {
    const mantissa = v / Math.pow(10, Math.floor(Math.log10(v) + 1e-9));
    const m = Math.round(mantissa);
    return Math.abs(mantissa - m) < 1e-6 && (!few || m === 1 || m === 2 || m === 5);
  }
  function fmtRate(v: number): string {
    if (v >= 1e6) return round4(v / 1e6) + "M/s";
    if (v >= 1e3) return round4(v / 1e3) + "k/s";
    return round4(v) + "/s";
  }
  // The last step at each rate stands for it (an inconclusive step is repeated longer).
  const byRate: Record<string, SearchPoint> = {};
  data.points.forEach(function (p) {
    byRate[String(p.ratePerSec)] = p;
  });
  const points = Object.keys(byRate).map(function (k) {
    return byRate[k];
  }).sort(function (a, b) {
    return a.ratePerSec - b.ratePerSec;
  });
  const datasets: Dataset[] = SERIES.map(function (s) {
    return {
      label: s.label,
      data: points.map(function (p) {
        return { x: p.ratePerSec, y: p[s.key] > 0 ? p[s.key] : null };
      }),
      borderColor: s.color,
      backgroundColor: s.color,
      showLine: true,
      borderWidth: 2,
      pointRadius: 5,
      pointBorderColor: points.map(function (p) {
        return OUTCOME[p.outcome];
      }),
      pointBorderWidth: 2,
    };
  });
  const overlay = {
    id: "searchOverlay",
    beforeDatasetsDraw: function (chart: ChartLike) {
      const x = chart.scales.x, y = chart.scales.y, area = chart.chartArea, ctx = chart.ctx;
      ctx.save();
      ctx.font = "12px system-ui, sans-serif";
      const b = data.bracket;
      if (b.passPerSec !== undefined) {
        const left = Math.max(area.left, x.getPixelForValue(b.passPerSec));
        const right = b.failPerSec === undefined
          ? area.right
          : Math.min(area.right, x.getPixelForValue(b.failPerSec));
        ctx.fillStyle = "rgba(47, 158, 68, 0.12)";
        ctx.fillRect(left, area.top, Math.max(2, right - left), area.bottom - area.top);
        ctx.fillStyle = "#2b8a3e";
        ctx.fillText("sustainable rate", left + 4, area.top + 14);
      }
      data.bounds.forEach(function (bound, i) {
        const series = SERIES.filter(function (s) {
          return s.id === bound.series;
        })[0];
        const py = y.getPixelForValue(bound.boundMs);
        if (!(py >= area.top && py <= area.bottom)) return;
        ctx.strokeStyle = series ? series.color : "#495057";
        ctx.setLineDash([6, 4]);
        ctx.beginPath();
        ctx.moveTo(area.left, py);
        ctx.lineTo(area.right, py);
        ctx.stroke();
        ctx.fillStyle = ctx.strokeStyle;
        ctx.fillText(bound.text, area.left + 4, py - 4 - (i % 2) * 12);
      });
      ctx.restore();
    },
  };
  Chart.defaults.animation = false;
  Chart.defaults.maintainAspectRatio = false;
  new Chart(canvas, {
    type: "scatter",
    data: { datasets: datasets },
    options: {
      scales: {
        x: {
          type: "logarithmic",
          title: { display: true, text: "rate tried (requests per second)" },
          ticks: {
            callback: function (v: number) {
              return nice(v, false) ? fmtRate(v) : "";
            },
          },
        },
        y: {
          type: "logarithmic",
          title: { display: true, text: "response time (corrected)" },
          ticks: {
            callback: function (v: number) {
              return nice(v, true) ? fmtMs(v) : "";
            },
          },
        },
      },
      plugins: {
        tooltip: {
          callbacks: {
            title: function (items: TooltipItem[]) {
              if (!items.length) return "";
              const p = byRate[String(items[0].parsed.x)];
              return "at " + fmtRate(items[0].parsed.x) + (p ? ": " + p.outcome : "");
            },
            label: function (item: TooltipItem) {
              return item.dataset.label + ": " + fmtMs(item.parsed.y);
            },
          },
        },
      },
    },
    plugins: [overlay],
  });
  document.documentElement.setAttribute("data-charts", "drawn");
}

/**
 * The page's drawing script: {@linkcode searchClient}'s source, called at once.
 *
 * @example
 * ```ts
 * import { SEARCH_CLIENT_SCRIPT } from "./search_html_client.ts";
 * const html = `<script>${SEARCH_CLIENT_SCRIPT}</script>`;
 * ```
 */
export const SEARCH_CLIENT_SCRIPT: string = `(${searchClient.toString()})();\n`;
