/**
 * The script the HTML report runs in the browser: it reads the embedded chart data (see
 * html_data.ts) and draws it with the inlined chart.js. It computes nothing about the run; it only
 * styles, labels and draws.
 *
 * It is checked and linted TypeScript: {@linkcode reportClient} is typed against the chart data's
 * own types (so the page and the data it reads cannot drift apart) and against the few browser
 * APIs it uses (declared below: the DOM library cannot join Deno's in one program), and the page
 * embeds its source as Deno has stripped it of types (`Function.prototype.toString`). So the
 * function must stand alone: no values from outside its body (types are erased and fine).
 *
 * @module
 */
import type { ChartData, PercentileSeries, SloMarker, TimelineSeries } from "../html/mod.ts";
import type {
  AxisOptions,
  Canvas2D,
  ChartGlobal,
  ChartLike,
  Dataset,
  PageDocument,
  ScaleLike,
  TooltipItem,
} from "./client_globals.ts";

declare const document: PageDocument;
declare const Chart: ChartGlobal;

/**
 * Draws every chart of the report. Expects the global `Chart` and a `<script
 * type="application/json" id="tailgate-data">` element; draws into the canvases
 * `chart-percentile`, `chart-timeline-latency`, `chart-timeline-throughput` and `chart-ramp` when
 * present, and marks the page `data-charts="drawn"`.
 *
 * @example
 * ```ts
 * import { CLIENT_SCRIPT } from "./html_client.ts";
 * CLIENT_SCRIPT.startsWith("(function reportClient()"); // true
 * ```
 */
export function reportClient(): void {
  "use strict";
  const data: ChartData = JSON.parse(
    document.getElementById("tailgate-data")?.textContent ?? "null",
  );
  const COLORS: Record<string, string> = {
    response: "#c2255c",
    service: "#1971c2",
    baselineResponse: "#868e96",
    baselineService: "#adb5bd",
    p50: "#1971c2",
    p99: "#e8590c",
    max: "#c2255c",
    serviceP99: "#74c0fc",
    intended: "#343a40",
    sent: "#2f9e44",
    completed: "#1971c2",
    errors: "#e03131",
    stall: "#e03131",
  };
  const DASHES: Record<string, number[]> = {
    baselineResponse: [7, 4],
    baselineService: [2, 3],
    serviceP99: [5, 3],
    intended: [7, 4],
  };
  const STATUS_COLORS: Record<SloMarker["status"], string> = {
    pass: "#2f9e44",
    fail: "#e03131",
    inconclusive: "#e8590c",
    invalid: "#7048e8",
    "not judged": "#868e96",
  };
  Chart.defaults.animation = false;
  Chart.defaults.maintainAspectRatio = false;
  Chart.defaults.color = "#495057";
  Chart.defaults.font.family = "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif";
  Chart.defaults.plugins.legend.labels.boxHeight = 2;

  function round4(v: number): number {
    return Number(v.toPrecision(4));
  }
  function fmtMs(v: number | null | undefined): string {
    if (v === null || v === undefined) return "–";
    const a = Math.abs(v);
    if (a === 0) return "0ms";
    if (a < 1) return round4(v * 1000) + "us";
    if (a < 1000) return round4(v) + "ms";
    return round4(v / 1000) + "s";
  }
  function fmtRate(v: number): string {
    if (v >= 1e6) return round4(v / 1e6) + "M/s";
    if (v >= 1e3) return round4(v / 1e3) + "k/s";
    return round4(v) + "/s";
  }
  function niceLogTick(v: number): boolean {
    if (!(v > 0)) return false;
    const m = Math.round(v / Math.pow(10, Math.floor(Math.log10(v) + 1e-9)));
    return m === 1 || m === 2 || m === 5;
  }
  function line(s: PercentileSeries | TimelineSeries, extra?: Dataset): Dataset {
    const ds: Dataset = {
      label: s.label,
      data: s.points,
      borderColor: COLORS[s.role],
      backgroundColor: COLORS[s.role],
      borderDash: DASHES[s.role] || [],
      borderWidth: s.role === "response" || s.role === "max" ? 2.5 : 2,
      pointRadius: 0,
      pointHitRadius: 6,
      tension: 0,
      spanGaps: false,
    };
    for (const k in extra) ds[k] = extra[k];
    return ds;
  }
  const logToggle = document.getElementById("log-latency");
  function useLog(): boolean {
    return !logToggle || logToggle.checked === true;
  }
  function latencyAxis(): AxisOptions {
    return {
      type: useLog() ? "logarithmic" : "linear",
      beginAtZero: !useLog(),
      title: { display: true, text: "latency" },
      // Headroom above the highest curve or SLO, so a marker on the top edge is not cut in half.
      afterDataLimits: function (scale: ScaleLike) {
        scale.max *= scale.type === "logarithmic" ? 1.6 : 1.06;
      },
      ticks: {
        autoSkip: true,
        callback: function (this: ScaleLike, v: number) {
          return this.type === "logarithmic" && !niceLogTick(v) ? "" : fmtMs(v);
        },
      },
    };
  }
  const latencyCharts: ChartLike[] = [];
  function msLabel(item: TooltipItem): string {
    return item.dataset.label + ": " + fmtMs(item.parsed.y);
  }

  /** `text` cut with "…" to fit `widthPx`, or "" when not even three letters do. */
  function fitText(ctx: Canvas2D, text: string, widthPx: number): string {
    if (ctx.measureText(text).width <= widthPx) return text;
    for (let n = text.length - 1; n >= 3; n--) {
      const cut = text.slice(0, n) + "…";
      if (ctx.measureText(cut).width <= widthPx) return cut;
    }
    return "";
  }

  const stageBands = {
    id: "stageBands",
    beforeDatasetsDraw: function (chart: ChartLike) {
      if (!data.timeline) return;
      const x = chart.scales.x, area = chart.chartArea, ctx = chart.ctx;
      ctx.save();
      ctx.font = "12px " + Chart.defaults.font.family;
      const labels: Array<{ name: string; left: number; right: number }> = [];
      data.timeline.stages.forEach(function (s, i) {
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

  // Where a windowed SLO (`over 10s`) failed: a light red band with a solid foot.
  const windowBands = {
    id: "windowBands",
    beforeDatasetsDraw: function (chart: ChartLike) {
      const marks = data.timeline ? data.timeline.windows : [];
      const x = chart.scales.x, area = chart.chartArea, ctx = chart.ctx;
      const boxes: Array<{ slo: string; left: number; right: number }> = [];
      ctx.save();
      marks.forEach(function (m) {
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

  function percentileChart(): void {
    const canvas = document.getElementById("chart-percentile");
    if (!canvas) return;
    const axis = data.percentile.axis;
    const labels: Record<number, string> = {};
    axis.ticks.forEach(function (t) {
      labels[t.x] = t.label;
    });
    const select = document.getElementById("percentile-view");
    function datasets(view: ChartData["percentile"]["views"][number]): Dataset[] {
      const sets = view.series.map(function (s) {
        return line(s);
      });
      view.slos.forEach(function (m) {
        const color = STATUS_COLORS[m.status];
        sets.push({
          label: "SLO " + m.name + " (" + m.status + ")",
          data: [[m.x / 2, m.boundMs], [m.x, m.boundMs], [
            Math.min(m.x * 2, axis.maxX),
            m.boundMs,
          ]],
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
    const chart = new Chart(canvas, {
      type: "line",
      data: { datasets: datasets(data.percentile.views[0]) },
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
          y: latencyAxis(),
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
    latencyCharts.push(chart);
    if (select) {
      select.addEventListener("change", function () {
        chart.data.datasets = datasets(data.percentile.views[Number(select.value)]);
        chart.update();
      });
    }
  }

  function timeAxis(): AxisOptions {
    return {
      type: "linear",
      min: 0,
      max: data.timeline?.endS,
      title: { display: true, text: "seconds since start" },
    };
  }

  // One value per interval, drawn at its midpoint: steps change at the interval boundaries.
  const PER_INTERVAL = { stepped: "middle" };

  function timelineCharts(): void {
    const timeline = data.timeline;
    if (!timeline) return;
    const latencyCanvas = document.getElementById("chart-timeline-latency");
    const throughputCanvas = document.getElementById("chart-timeline-throughput");
    const secondsTitle = function (items: TooltipItem[]) {
      return items.length ? "t = " + items[0].parsed.x + "s" : "";
    };
    if (latencyCanvas) {
      latencyCharts.push(
        new Chart(latencyCanvas, {
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
            scales: { x: timeAxis(), y: latencyAxis() },
            plugins: { tooltip: { callbacks: { title: secondsTitle, label: msLabel } } },
          },
          plugins: [stageBands, windowBands],
        }),
      );
    }
    if (throughputCanvas) {
      new Chart(throughputCanvas, {
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
            x: timeAxis(),
            y: {
              beginAtZero: true,
              title: { display: true, text: "requests per second" },
              ticks: {
                callback: function (v: number) {
                  return fmtRate(v);
                },
              },
            },
            errors: {
              position: "right",
              beginAtZero: true,
              suggestedMax: 1,
              grid: { drawOnChartArea: false },
              title: { display: true, text: "errors per second", color: COLORS.errors },
              ticks: {
                color: COLORS.errors,
                callback: function (v: number) {
                  return fmtRate(v);
                },
              },
            },
          },
          plugins: {
            tooltip: {
              callbacks: {
                title: secondsTitle,
                label: function (item: TooltipItem) {
                  return item.dataset.label + ": " + fmtRate(item.parsed.y);
                },
              },
            },
          },
        },
        plugins: [stageBands],
      });
    }
  }

  function rampChart(): void {
    const canvas = document.getElementById("chart-ramp");
    if (!canvas || !data.ramp) return;
    latencyCharts.push(
      new Chart(canvas, {
        type: "line",
        data: {
          datasets: data.ramp.latency.map(function (s) {
            return line(s, { pointRadius: 2.5 });
          }),
        },
        options: {
          interaction: { mode: "index", intersect: false },
          scales: {
            x: {
              type: "linear",
              title: { display: true, text: "intended rate (requests per second)" },
              ticks: {
                callback: function (v: number) {
                  return fmtRate(v);
                },
              },
            },
            y: latencyAxis(),
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
      }),
    );
  }

  percentileChart();
  timelineCharts();
  rampChart();
  if (logToggle) {
    logToggle.addEventListener("change", function () {
      latencyCharts.forEach(function (chart) {
        chart.options.scales.y = latencyAxis();
        chart.update();
      });
    });
  }
  document.documentElement.setAttribute("data-charts", "drawn");
}

/**
 * The browser script: {@linkcode reportClient}'s source (types stripped by Deno), called at once.
 *
 * @example
 * ```ts
 * import { CLIENT_SCRIPT } from "./html_client.ts";
 * const html = `<script>${CLIENT_SCRIPT}</script>`;
 * ```
 */
export const CLIENT_SCRIPT: string = `(${reportClient.toString()})();\n`;
