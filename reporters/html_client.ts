/**
 * The script the HTML report runs in the browser: it reads the embedded chart data (see
 * html_data.ts) and draws it with the inlined chart.js. It computes nothing about the run; it only
 * styles, labels and draws. Plain ES5-style JavaScript, kept as text.
 *
 * @module
 */

/**
 * The browser script. Expects the global `Chart` and a `<script type="application/json"
 * id="tailgate-data">` element; draws into the canvases `chart-percentile`,
 * `chart-timeline-latency`, `chart-timeline-throughput` and `chart-ramp` when present.
 *
 * @example
 * ```ts
 * import { CLIENT_SCRIPT } from "./html_client.ts";
 * const html = `<script>${CLIENT_SCRIPT}</script>`;
 * ```
 */
export const CLIENT_SCRIPT: string = String.raw`(function () {
"use strict";
var data = JSON.parse(document.getElementById("tailgate-data").textContent);
var COLORS = {
  response: "#c2255c", service: "#1971c2", baselineResponse: "#868e96", baselineService: "#adb5bd",
  p50: "#1971c2", p99: "#e8590c", max: "#c2255c", serviceP99: "#74c0fc",
  intended: "#343a40", sent: "#2f9e44", completed: "#1971c2", errors: "#e03131"
};
var DASHES = { baselineResponse: [7, 4], baselineService: [2, 3], serviceP99: [5, 3], intended: [7, 4] };
var STATUS_COLORS = {
  pass: "#2f9e44", fail: "#e03131", inconclusive: "#e8590c", invalid: "#7048e8", "not judged": "#868e96"
};
Chart.defaults.animation = false;
Chart.defaults.maintainAspectRatio = false;
Chart.defaults.color = "#495057";
Chart.defaults.font.family = "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif";
Chart.defaults.plugins.legend.labels.boxHeight = 2;

function round4(v) { return Number(v.toPrecision(4)); }
function fmtMs(v) {
  if (v === null || v === undefined) return "–";
  var a = Math.abs(v);
  if (a === 0) return "0ms";
  if (a < 1) return round4(v * 1000) + "us";
  if (a < 1000) return round4(v) + "ms";
  return round4(v / 1000) + "s";
}
function fmtRate(v) {
  if (v >= 1e6) return round4(v / 1e6) + "M/s";
  if (v >= 1e3) return round4(v / 1e3) + "k/s";
  return round4(v) + "/s";
}
function niceLogTick(v) {
  if (!(v > 0)) return false;
  var m = Math.round(v / Math.pow(10, Math.floor(Math.log10(v) + 1e-9)));
  return m === 1 || m === 2 || m === 5;
}
function line(s, extra) {
  var ds = {
    label: s.label, data: s.points, borderColor: COLORS[s.role], backgroundColor: COLORS[s.role],
    borderDash: DASHES[s.role] || [], borderWidth: s.role === "response" || s.role === "max" ? 2.5 : 2,
    pointRadius: 0, pointHitRadius: 6, tension: 0, spanGaps: false
  };
  for (var k in extra) ds[k] = extra[k];
  return ds;
}
var logToggle = document.getElementById("log-latency");
function useLog() { return !logToggle || logToggle.checked; }
function latencyAxis() {
  return {
    type: useLog() ? "logarithmic" : "linear",
    beginAtZero: !useLog(),
    title: { display: true, text: "latency" },
    // Headroom above the highest curve or SLO, so a marker on the top edge is not cut in half.
    afterDataLimits: function (scale) { scale.max *= scale.type === "logarithmic" ? 1.6 : 1.06; },
    ticks: {
      autoSkip: true,
      callback: function (v) { return this.type === "logarithmic" && !niceLogTick(v) ? "" : fmtMs(v); }
    }
  };
}
var latencyCharts = [];
function msLabel(item) { return item.dataset.label + ": " + fmtMs(item.parsed.y); }

var stageBands = {
  id: "stageBands",
  beforeDatasetsDraw: function (chart) {
    if (!data.timeline) return;
    var x = chart.scales.x, area = chart.chartArea, ctx = chart.ctx;
    ctx.save();
    ctx.font = "12px " + Chart.defaults.font.family;
    data.timeline.stages.forEach(function (s, i) {
      var left = Math.max(area.left, x.getPixelForValue(s.startS));
      var right = Math.min(area.right, x.getPixelForValue(s.endS));
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
      ctx.fillStyle = "#495057";
      ctx.fillText(s.name, left + 4, area.top + (i % 2 === 0 ? 14 : 28));
    });
    ctx.restore();
  }
};

function percentileChart() {
  var canvas = document.getElementById("chart-percentile");
  if (!canvas) return;
  var axis = data.percentile.axis;
  var labels = {};
  axis.ticks.forEach(function (t) { labels[t.x] = t.label; });
  var select = document.getElementById("percentile-view");
  function datasets(view) {
    var sets = view.series.map(function (s) { return line(s); });
    view.slos.forEach(function (m) {
      var color = STATUS_COLORS[m.status];
      sets.push({
        label: "SLO " + m.name + " (" + m.status + ")",
        data: [[m.x / 2, m.boundMs], [m.x, m.boundMs], [Math.min(m.x * 2, axis.maxX), m.boundMs]],
        borderColor: color, backgroundColor: color, borderWidth: 2, borderDash: [3, 2],
        pointStyle: "rectRot", pointRadius: [0, 6, 0], pointHoverRadius: [0, 7, 0],
        clip: false // a marker at "max" sits on the chart's right edge
      });
    });
    return sets;
  }
  function percentText(x) {
    if (x >= axis.maxX) return "max";
    return Number((100 * (1 - 1 / x)).toFixed(4)) + "%";
  }
  var chart = new Chart(canvas, {
    type: "line",
    data: { datasets: datasets(data.percentile.views[0]) },
    options: {
      interaction: { mode: "nearest", axis: "x", intersect: false },
      scales: {
        x: {
          type: "logarithmic", min: 1, max: axis.maxX,
          title: { display: true, text: "percentile (each step to the right adds a nine)" },
          afterBuildTicks: function (scale) {
            scale.ticks = axis.ticks.map(function (t) { return { value: t.x }; });
          },
          ticks: { autoSkip: false, maxRotation: 0, callback: function (v) { return labels[v] || ""; } }
        },
        y: latencyAxis()
      },
      plugins: {
        tooltip: {
          callbacks: {
            title: function (items) { return items.length ? percentText(items[0].parsed.x) : ""; },
            label: msLabel
          }
        }
      }
    }
  });
  latencyCharts.push(chart);
  if (select) {
    select.addEventListener("change", function () {
      chart.data.datasets = datasets(data.percentile.views[Number(select.value)]);
      chart.update();
    });
  }
}

function timeAxis() {
  return {
    type: "linear", min: 0, max: data.timeline.endS,
    title: { display: true, text: "seconds since start" }
  };
}

// One value per interval, drawn at its midpoint: steps change at the interval boundaries.
var PER_INTERVAL = { stepped: "middle" };

function timelineCharts() {
  if (!data.timeline) return;
  var latencyCanvas = document.getElementById("chart-timeline-latency");
  var throughputCanvas = document.getElementById("chart-timeline-throughput");
  var secondsTitle = function (items) { return items.length ? "t = " + items[0].parsed.x + "s" : ""; };
  if (latencyCanvas) {
    latencyCharts.push(new Chart(latencyCanvas, {
      type: "line",
      data: { datasets: data.timeline.latency.map(function (s) { return line(s, PER_INTERVAL); }) },
      options: {
        interaction: { mode: "index", intersect: false },
        scales: { x: timeAxis(), y: latencyAxis() },
        plugins: { tooltip: { callbacks: { title: secondsTitle, label: msLabel } } }
      },
      plugins: [stageBands]
    }));
  }
  if (throughputCanvas) {
    new Chart(throughputCanvas, {
      type: "line",
      data: {
        datasets: data.timeline.throughput.map(function (s) {
          if (s.role === "intended") return line(s);
          return line(s, s.role === "errors" ? { stepped: "middle", yAxisID: "errors", backgroundColor: "rgba(224, 49, 49, 0.15)", fill: true } : PER_INTERVAL);
        })
      },
      options: {
        interaction: { mode: "nearest", axis: "x", intersect: false },
        scales: {
          x: timeAxis(),
          y: { beginAtZero: true, title: { display: true, text: "requests per second" },
               ticks: { callback: function (v) { return fmtRate(v); } } },
          errors: { position: "right", beginAtZero: true, suggestedMax: 1, grid: { drawOnChartArea: false },
                    title: { display: true, text: "errors per second", color: COLORS.errors },
                    ticks: { color: COLORS.errors, callback: function (v) { return fmtRate(v); } } }
        },
        plugins: {
          tooltip: { callbacks: { title: secondsTitle, label: function (item) {
            return item.dataset.label + ": " + fmtRate(item.parsed.y);
          } } }
        }
      },
      plugins: [stageBands]
    });
  }
}

function rampChart() {
  var canvas = document.getElementById("chart-ramp");
  if (!canvas || !data.ramp) return;
  latencyCharts.push(new Chart(canvas, {
    type: "line",
    data: { datasets: data.ramp.latency.map(function (s) { return line(s, { pointRadius: 2.5 }); }) },
    options: {
      interaction: { mode: "index", intersect: false },
      scales: {
        x: { type: "linear", title: { display: true, text: "intended rate (requests per second)" },
             ticks: { callback: function (v) { return fmtRate(v); } } },
        y: latencyAxis()
      },
      plugins: {
        tooltip: { callbacks: {
          title: function (items) { return items.length ? "at " + fmtRate(items[0].parsed.x) : ""; },
          label: msLabel
        } }
      }
    }
  }));
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
})();
`;
