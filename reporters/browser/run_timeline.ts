/**
 * Browser code: the run report's timeline charts (latency and throughput per interval), with the
 * stages drawn as bands and named, and the spans where a windowed SLO failed shaded.
 *
 * @module
 */
import type { TimelineChartData } from "./run_page_data.ts";
import type { Canvas2D, ChartLike, TooltipItem } from "./client_globals.ts";
import { msLabel, newChart, pageElement } from "./chart_kit.ts";
import {
  COLORS,
  latencyAxis,
  line,
  PER_INTERVAL,
  rateLabel,
  rateTicks,
  timeAxis,
} from "./run_style.ts";

/** `text` cut with "…" to fit `widthPx`, or "" when not even three letters do. */
function fitText(ctx: Canvas2D, text: string, widthPx: number): string {
  if (ctx.measureText(text).width <= widthPx) return text;
  for (let n = text.length - 1; n >= 3; n--) {
    const cut = text.slice(0, n) + "…";
    if (ctx.measureText(cut).width <= widthPx) return cut;
  }
  return "";
}

/** The stages as bands (warm-up greyed), divided by dashed lines and named above. */
function stageBands(timeline: TimelineChartData, fontFamily: string) {
  return {
    id: "stageBands",
    beforeDatasetsDraw: function (chart: ChartLike) {
      const x = chart.scales.x, area = chart.chartArea, ctx = chart.ctx;
      ctx.save();
      ctx.font = "12px " + fontFamily;
      const labels: Array<{ name: string; left: number; right: number }> = [];
      timeline.stages.forEach(function (s, i) {
        const left = Math.max(area.left, x.getPixelForValue(s.startS));
        const right = Math.min(area.right, x.getPixelForValue(s.endS));
        if (s.warmup) {
          ctx.fillStyle = "rgba(134, 142, 150, 0.12)";
          ctx.fillRect(left, area.top, right - left, area.bottom - area.top);
        }
        if (i > 0) {
          ctx.strokeStyle = "#868e96";
          ctx.setLineDash([4, 4]);
          ctx.beginPath();
          ctx.moveTo(left, area.top);
          ctx.lineTo(left, area.bottom);
          ctx.stroke();
        }
        labels.push({ name: s.name, left: left + 4, right: right });
      });
      // Each name goes in the first of three rows where it clears the one before it, so short
      // stages on a narrow page do not print over each other; a name that fits no row is cut to
      // its stage's width, or left to the stage table when not even three letters fit.
      const rowEnds = [-Infinity, -Infinity, -Infinity];
      const placed: Array<{ text: string; x: number; y: number; width: number }> = [];
      ctx.fillStyle = "#495057";
      labels.forEach(function (l) {
        let text = l.name;
        const width = ctx.measureText(text).width;
        const x = Math.max(area.left + 2, Math.min(l.left, area.right - width - 2));
        let row = rowEnds.findIndex(function (end) {
          return end + 6 <= x;
        });
        if (row < 0) {
          row = rowEnds.indexOf(Math.min.apply(null, rowEnds));
          const room = Math.max(l.right, rowEnds[row]) - Math.max(l.left, rowEnds[row] + 6) - 4;
          text = fitText(ctx, l.name, room);
          if (text === "") return;
        }
        const at = Math.max(x, rowEnds[row] + 6);
        const y = area.top + 14 + 14 * row;
        ctx.fillText(text, at, y);
        rowEnds[row] = at + ctx.measureText(text).width;
        placed.push({ text: text, x: at, y: y, width: rowEnds[row] - at });
      });
      // What was drawn where, for readers of the chart (and the browser test).
      chart.stageLabels = placed;
      ctx.restore();
    },
  };
}

/** Where a windowed SLO (`over 10s`) failed: a light red band with a solid foot. */
function windowBands(timeline: TimelineChartData) {
  return {
    id: "windowBands",
    beforeDatasetsDraw: function (chart: ChartLike) {
      const x = chart.scales.x, area = chart.chartArea, ctx = chart.ctx;
      const boxes: Array<{ slo: string; left: number; right: number }> = [];
      ctx.save();
      timeline.windows.forEach(function (m) {
        const left = Math.max(area.left, x.getPixelForValue(m.startS));
        const right = Math.min(area.right, x.getPixelForValue(m.endS));
        if (right <= left) return;
        ctx.fillStyle = "rgba(224, 49, 49, 0.08)";
        ctx.fillRect(left, area.top, right - left, area.bottom - area.top);
        ctx.fillStyle = "#e03131";
        ctx.fillRect(left, area.bottom - 5, right - left, 5);
        boxes.push({ slo: m.slo, left: left, right: right });
      });
      chart.windowBoxes = boxes;
      ctx.restore();
    },
  };
}

function secondsTitle(items: TooltipItem[]): string {
  return items.length ? "t = " + items[0].parsed.x + "s" : "";
}

/**
 * Draws `chart-timeline-latency` and `chart-timeline-throughput` when the page has them; returns
 * the latency chart (to redraw when the axis switches), if drawn.
 */
export function timelineCharts(
  timeline: TimelineChartData,
  log: boolean,
  fontFamily: string,
): ChartLike | undefined {
  const latencyCanvas = pageElement("chart-timeline-latency");
  const throughputCanvas = pageElement("chart-timeline-throughput");
  const bands = stageBands(timeline, fontFamily);
  let latencyChart: ChartLike | undefined;
  if (latencyCanvas) {
    latencyChart = newChart(latencyCanvas, {
      type: "line",
      data: {
        datasets: timeline.latency.map(function (s) {
          return s.role === "stall"
            ? line(s, {
              showLine: false,
              pointStyle: "triangle",
              pointRadius: 7,
              pointHoverRadius: 9,
              backgroundColor: "rgba(224, 49, 49, 0.35)",
            })
            : line(s, PER_INTERVAL);
        }),
      },
      options: {
        interaction: { mode: "index", intersect: false },
        scales: { x: timeAxis(timeline.endS), y: latencyAxis(log) },
        plugins: { tooltip: { callbacks: { title: secondsTitle, label: msLabel } } },
      },
      plugins: [bands, windowBands(timeline)],
    });
  }
  if (throughputCanvas) {
    newChart(throughputCanvas, {
      type: "line",
      data: {
        datasets: timeline.throughput.map(function (s) {
          if (s.role === "intended") return line(s);
          return line(
            s,
            s.role === "errors"
              ? {
                stepped: "middle",
                yAxisID: "errors",
                backgroundColor: "rgba(224, 49, 49, 0.15)",
                fill: true,
              }
              : PER_INTERVAL,
          );
        }),
      },
      options: {
        interaction: { mode: "nearest", axis: "x", intersect: false },
        scales: {
          x: timeAxis(timeline.endS),
          y: {
            beginAtZero: true,
            title: { display: true, text: "requests per second" },
            ticks: rateTicks(),
          },
          errors: {
            position: "right",
            beginAtZero: true,
            suggestedMax: 1,
            grid: { drawOnChartArea: false },
            title: { display: true, text: "errors per second", color: COLORS.errors },
            ticks: rateTicks(COLORS.errors),
          },
        },
        plugins: { tooltip: { callbacks: { title: secondsTitle, label: rateLabel } } },
      },
      plugins: [bands],
    });
  }
  return latencyChart;
}
