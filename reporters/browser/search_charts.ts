/**
 * Browser code: the capacity search page's script (search/search_html.ts embeds it). It draws the
 * latencies of every rate tried against that rate with the inlined chart.js, the bracket the
 * search found as a band and the latency SLOs as dashed bounds. It computes nothing about the
 * search.
 *
 * @module
 */
import type { SearchChartData, SearchPoint } from "./search_page_data.ts";
import type { ChartLike, Dataset, TooltipItem } from "./client_globals.ts";
import {
  chartDefaults,
  fmtRate,
  markDrawn,
  msLabel,
  newChart,
  niceLogValue,
  pageData,
  pageElement,
  responseTimeAxis,
} from "./chart_kit.ts";

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

/** The sustainable-rate bracket as a green band, and each latency SLO as a dashed line. */
function overlay(data: SearchChartData) {
  return {
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
}

/** Draws the search chart into `chart-search`, and marks the page drawn. */
export function drawSearchCharts(): void {
  const data = pageData<SearchChartData>();
  const canvas = pageElement("chart-search");
  if (!canvas) return;
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
  chartDefaults();
  newChart(canvas, {
    type: "scatter",
    data: { datasets: datasets },
    options: {
      scales: {
        x: {
          type: "logarithmic",
          title: { display: true, text: "rate tried (requests per second)" },
          ticks: {
            callback: function (v: number) {
              return niceLogValue(v, false) ? fmtRate(v) : "";
            },
          },
        },
        y: responseTimeAxis(),
      },
      plugins: {
        tooltip: {
          callbacks: {
            title: function (items: TooltipItem[]) {
              if (!items.length) return "";
              const p = byRate[String(items[0].parsed.x)];
              return "at " + fmtRate(items[0].parsed.x) + (p ? ": " + p.outcome : "");
            },
            label: msLabel,
          },
        },
      },
    },
    plugins: [overlay(data)],
  });
  markDrawn();
}
