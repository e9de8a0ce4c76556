/**
 * Browser code: the run report's script (html/html.ts embeds it). It reads the embedded chart
 * data (html/html_data.ts) and draws it with the inlined chart.js: latency by percentile, the
 * timeline charts and latency against the ramp's rate. It computes nothing about the run; it
 * only styles, labels and draws.
 *
 * @module
 */
import type { ChartData, RampChartData } from "./run_page_data.ts";
import type { ChartLike, Dataset, ScaleLike, TooltipItem } from "./client_globals.ts";
import { fmtRate, markDrawn, msLabel, newChart, pageData, pageElement } from "./chart_kit.ts";
import {
  latencyAxis,
  line,
  logLatencySwitch,
  rateTicks,
  STATUS_COLORS,
  styledDefaults,
} from "./run_style.ts";
import { timelineCharts } from "./run_timeline.ts";

type PercentileData = ChartData["percentile"];

/** Draws `chart-percentile`, its view switched by the `percentile-view` select when present. */
function percentileChart(percentile: PercentileData, log: boolean): ChartLike | undefined {
  const canvas = pageElement("chart-percentile");
  if (!canvas) return undefined;
  const axis = percentile.axis;
  const labels: Record<number, string> = {};
  axis.ticks.forEach(function (t) {
    labels[t.x] = t.label;
  });
  const select = pageElement("percentile-view");
  function datasets(view: PercentileData["views"][number]): Dataset[] {
    const sets = view.series.map(function (s) {
      return line(s);
    });
    view.slos.forEach(function (m) {
      const color = STATUS_COLORS[m.status];
      sets.push({
        label: "SLO " + m.name + " (" + m.status + ")",
        data: [[m.x / 2, m.boundMs], [m.x, m.boundMs], [Math.min(m.x * 2, axis.maxX), m.boundMs]],
        borderColor: color,
        backgroundColor: color,
        borderWidth: 2,
        borderDash: [3, 2],
        pointStyle: "rectRot",
        pointRadius: [0, 6, 0],
        pointHoverRadius: [0, 7, 0],
        clip: false, // a marker at "max" sits on the chart's right edge
      });
    });
    return sets;
  }
  function percentText(x: number): string {
    if (x >= axis.maxX) return "max";
    return Number((100 * (1 - 1 / x)).toFixed(4)) + "%";
  }
  const chart = newChart(canvas, {
    type: "line",
    data: { datasets: datasets(percentile.views[0]) },
    options: {
      interaction: { mode: "nearest", axis: "x", intersect: false },
      scales: {
        x: {
          type: "logarithmic",
          min: 1,
          max: axis.maxX,
          title: { display: true, text: "percentile (each step to the right adds a nine)" },
          afterBuildTicks: function (scale: ScaleLike) {
            // A label needs about 44 px: on a narrow page a tick too close to the one kept
            // before it (0% beside 50%) is left out; `max` always stays.
            const widthPx = scale.width > 0 ? scale.width : scale.chart.width;
            const span = Math.log(axis.maxX);
            const kept: Array<{ value: number }> = [];
            axis.ticks.forEach(function (t, i) {
              const last = i === axis.ticks.length - 1;
              const gapPx = (x: number) => (Math.log(t.x) - Math.log(x)) / span * widthPx;
              const crowded = kept.length > 0 && gapPx(kept[kept.length - 1].value) < 44;
              // The median matters more than the minimum (0%), and `max` more than any.
              if (crowded && (last || kept[kept.length - 1].value === axis.ticks[0].x)) {
                kept.pop();
              }
              while (last && kept.length && gapPx(kept[kept.length - 1].value) < 44) kept.pop();
              if (!kept.length || gapPx(kept[kept.length - 1].value) >= 44) {
                kept.push({ value: t.x });
              }
            });
            scale.ticks = kept;
          },
          ticks: {
            autoSkip: false,
            maxRotation: 0,
            callback: function (v: number) {
              return labels[v] || "";
            },
          },
        },
        y: latencyAxis(log),
      },
      plugins: {
        tooltip: {
          callbacks: {
            title: function (items: TooltipItem[]) {
              return items.length ? percentText(items[0].parsed.x) : "";
            },
            label: msLabel,
          },
        },
      },
    },
  });
  if (select) {
    select.addEventListener("change", function () {
      chart.data.datasets = datasets(percentile.views[Number(select.value)]);
      chart.update();
    });
  }
  return chart;
}

/** Draws `chart-ramp`: latency against the intended rate. */
function rampChart(ramp: RampChartData, log: boolean): ChartLike | undefined {
  const canvas = pageElement("chart-ramp");
  if (!canvas) return undefined;
  return newChart(canvas, {
    type: "line",
    data: {
      datasets: ramp.latency.map(function (s) {
        return line(s, { pointRadius: 2.5 });
      }),
    },
    options: {
      interaction: { mode: "index", intersect: false },
      scales: {
        x: {
          type: "linear",
          title: { display: true, text: "intended rate (requests per second)" },
          ticks: rateTicks(),
        },
        y: latencyAxis(log),
      },
      plugins: {
        tooltip: {
          callbacks: {
            title: function (items: TooltipItem[]) {
              return items.length ? "at " + fmtRate(items[0].parsed.x) : "";
            },
            label: msLabel,
          },
        },
      },
    },
  });
}

/**
 * Draws every chart of the report into the canvases `chart-percentile`, `chart-timeline-latency`,
 * `chart-timeline-throughput` and `chart-ramp` the page has; the `log-latency` checkbox switches
 * their latency axes between log and linear. Marks the page drawn.
 */
export function drawRunCharts(): void {
  const data = pageData<ChartData>();
  const defaults = styledDefaults();
  const latencyCharts: Array<ChartLike | undefined> = [];
  const log = logLatencySwitch(function (useLog) {
    latencyCharts.forEach(function (chart) {
      if (!chart) return;
      chart.options.scales.y = latencyAxis(useLog);
      chart.update();
    });
  });
  latencyCharts.push(
    percentileChart(data.percentile, log),
    data.timeline ? timelineCharts(data.timeline, log, defaults.font.family) : undefined,
    data.ramp ? rampChart(data.ramp, log) : undefined,
  );
  markDrawn();
}
