/**
 * Browser code: the history page's script (history/history_html.ts embeds it). Each chart shows
 * one stage's metrics over the stored runs (x: the runs in order, labelled by short commit or
 * date), the change points marked (a step as a vertical line at its run, a trend as a shaded
 * span; worse ones red, better ones green, unclear ones grey), the SLO bounds as dashed lines with their text, and a
 * tooltip naming the run's commit, branch and time with each value. It computes nothing about
 * the history: the change points come from the page's data.
 *
 * @module
 */
import type { HistoryChart, HistoryChartData, HistoryPlanCharts } from "./history_page_data.ts";
import type { AxisOptions, ChartLike, Dataset, ScaleLike, TooltipItem } from "./client_globals.ts";
import { fmtMs, fmtRate, markDrawn, newChart, pageData, pageElement, round4 } from "./chart_kit.ts";
import { latencyAxis, logLatencySwitch, rateTicks, styledDefaults } from "./run_style.ts";

const METRIC_COLORS: Record<string, string> = {
  p50: "#1971c2",
  p90: "#0c8599",
  p99: "#e8590c",
  "p99.9": "#7048e8",
  throughput: "#1971c2",
  error_rate: "#c2255c",
};
/** A mark's line and its span's fill, by direction: red worse, green better, grey unclear. */
const DIRECTION_COLORS: Record<string, { line: string; fill: string }> = {
  worse: { line: "#e03131", fill: "rgba(224, 49, 49, 0.12)" },
  better: { line: "#2f9e44", fill: "rgba(47, 158, 68, 0.12)" },
  unclear: { line: "#868e96", fill: "rgba(134, 142, 150, 0.12)" },
};

/** A value as the chart's axis shows it. */
function valueText(axis: HistoryChart["axis"], v: number | null): string {
  if (v === null || v === undefined) return "–";
  if (axis === "latency") return fmtMs(v);
  if (axis === "throughput") return fmtRate(v);
  return round4(v) + "%";
}

/** The y axis: latency (log or linear), a rate, or a percent; room for the SLO bounds. */
function yAxis(chart: HistoryChart, log: boolean): AxisOptions {
  const top = chart.bounds.reduce(function (m, b) {
    return Math.max(m, b.value);
  }, 0);
  let axis: AxisOptions;
  if (chart.axis === "latency") {
    axis = latencyAxis(log);
  } else if (chart.axis === "throughput") {
    axis = {
      beginAtZero: true,
      title: { display: true, text: "requests per second" },
      ticks: rateTicks(),
    };
  } else {
    axis = {
      beginAtZero: true,
      suggestedMax: 1,
      title: { display: true, text: "error rate (%)" },
      ticks: {
        callback: function (v: number) {
          return round4(v) + "%";
        },
      },
    };
  }
  if (top > 0) axis.suggestedMax = Math.max(top * 1.1, chart.axis === "error_rate" ? 1 : 0);
  return axis;
}

/** The change points and the SLO bounds, drawn over the chart area and recorded on the chart. */
function overlay(chart: HistoryChart, fontFamily: string) {
  return {
    id: "historyOverlay",
    afterDatasetsDraw: function (c: ChartLike) {
      const x = c.scales.x, y = c.scales.y, area = c.chartArea, ctx = c.ctx;
      const marks: NonNullable<ChartLike["historyMarks"]> = [];
      const bounds: NonNullable<ChartLike["boundLines"]> = [];
      ctx.save();
      ctx.font = "12px " + fontFamily;
      chart.marks.forEach(function (m, k) {
        const colors = DIRECTION_COLORS[m.direction || (m.worse ? "worse" : "better")];
        const color = colors.line;
        const clamp = function (px: number) {
          return Math.max(area.left, Math.min(area.right, px));
        };
        let left: number, right: number;
        if (m.kind === "trend") {
          left = clamp(x.getPixelForValue(m.index - 0.5));
          right = clamp(x.getPixelForValue(m.endIndex + 0.5));
          ctx.fillStyle = colors.fill;
          ctx.fillRect(left, area.top, right - left, area.bottom - area.top);
        } else {
          left = right = clamp(x.getPixelForValue(m.index));
          ctx.strokeStyle = color;
          ctx.lineWidth = 2;
          ctx.setLineDash([]);
          ctx.beginPath();
          ctx.moveTo(left, area.top);
          ctx.lineTo(left, area.bottom);
          ctx.stroke();
        }
        const label = (m.kind === "trend" ? "trend: " : "step: ") + m.text;
        const width = ctx.measureText(label).width;
        const at = left + 4 + width <= area.right
          ? left + 4
          : Math.max(area.left, left - 4 - width);
        ctx.fillStyle = color;
        ctx.fillText(label, at, area.top + 13 + 14 * (k % 3));
        marks.push({
          kind: m.kind,
          worse: m.worse,
          direction: m.direction,
          text: label,
          left: left,
          right: right,
        });
      });
      chart.bounds.forEach(function (b, k) {
        const py = y.getPixelForValue(b.value);
        if (!(py >= area.top && py <= area.bottom)) {
          bounds.push({ text: b.text, y: null });
          return;
        }
        ctx.strokeStyle = METRIC_COLORS[b.metric] || "#495057";
        ctx.lineWidth = 1.5;
        ctx.setLineDash([6, 4]);
        ctx.beginPath();
        ctx.moveTo(area.left, py);
        ctx.lineTo(area.right, py);
        ctx.stroke();
        // The text on a light box, so a line running through it does not strike it out.
        const text = "SLO " + b.text;
        const width = ctx.measureText(text).width;
        const tx = area.right - width - 4, ty = py - 4 - (k % 2) * 13;
        ctx.fillStyle = "rgba(255, 255, 255, 0.85)";
        ctx.fillRect(tx - 2, ty - 11, width + 4, 14);
        ctx.fillStyle = ctx.strokeStyle;
        ctx.fillText(text, tx, ty);
        bounds.push({ text: b.text, y: py });
      });
      c.historyMarks = marks;
      c.boundLines = bounds;
      ctx.restore();
    },
  };
}

/** Draws one chart into its canvas. */
function drawChart(
  plan: HistoryPlanCharts,
  chart: HistoryChart,
  log: boolean,
  fontFamily: string,
): ChartLike | undefined {
  const canvas = pageElement(chart.id);
  if (!canvas) return undefined;
  const runs = plan.runs;
  const datasets: Dataset[] = chart.lines.map(function (l) {
    const color = METRIC_COLORS[l.metric] || "#495057";
    return {
      label: l.metric === "error_rate" ? "error rate" : l.metric,
      data: l.values.map(function (v, i) {
        return { x: i, y: v };
      }),
      borderColor: color,
      backgroundColor: color,
      borderWidth: 2,
      pointRadius: runs.length > 120 ? 0 : 2,
      pointHitRadius: 6,
      tension: 0,
      spanGaps: false,
    };
  });
  return newChart(canvas, {
    type: "line",
    data: { datasets: datasets },
    options: {
      interaction: { mode: "index", intersect: false },
      scales: {
        x: {
          type: "linear",
          min: -0.5,
          max: runs.length - 0.5,
          title: { display: true, text: "runs, oldest first (commit, or date)" },
          afterBuildTicks: function (scale: ScaleLike) {
            // A label needs about 72 px: label every step-th run, the newest always.
            const widthPx = scale.width > 0 ? scale.width : scale.chart.width;
            const step = Math.max(1, Math.ceil(runs.length / Math.max(1, widthPx / 72)));
            const ticks: Array<{ value: number }> = [];
            for (let i = (runs.length - 1) % step; i < runs.length; i += step) {
              ticks.push({ value: i });
            }
            scale.ticks = ticks;
          },
          ticks: {
            autoSkip: false,
            maxRotation: 0,
            callback: function (v: number) {
              const run = runs[v];
              return run ? run.tick : "";
            },
          },
        },
        y: yAxis(chart, log),
      },
      plugins: {
        tooltip: {
          callbacks: {
            title: function (items: TooltipItem[]) {
              if (!items.length) return "";
              const i = items[0].parsed.x;
              const run = runs[i];
              if (!run) return "";
              return [
                run.commit ? "commit " + run.commit : "no commit",
                run.branch ? "branch " + run.branch : "",
                run.date,
                "run " + (i + 1) + " of " + runs.length,
              ].filter(Boolean).join(" · ");
            },
            label: function (item: TooltipItem) {
              return item.dataset.label + ": " + valueText(chart.axis, item.parsed.y);
            },
          },
        },
      },
    },
    plugins: [overlay(chart, fontFamily)],
  });
}

/**
 * Draws every chart of the history page (canvases `history-<plan>-<chart>`); the `log-latency`
 * checkbox switches the latency charts between a log and a linear axis. Marks the page drawn.
 */
export function drawHistoryCharts(): void {
  const data = pageData<HistoryChartData>();
  const defaults = styledDefaults();
  const latency: Array<{ chart: ChartLike; data: HistoryChart }> = [];
  const log = logLatencySwitch(function (useLog) {
    latency.forEach(function (l) {
      l.chart.options.scales.y = yAxis(l.data, useLog);
      l.chart.update();
    });
  });
  data.plans.forEach(function (plan) {
    plan.charts.forEach(function (c) {
      const drawn = drawChart(plan, c, log, defaults.font.family);
      if (drawn && c.axis === "latency") latency.push({ chart: drawn, data: c });
    });
  });
  markDrawn();
}
