/**
 * Browser code: how the run report's charts look. Each series' colour and dash by its role, the
 * latency axis (log or linear, with headroom), the time axis, and the tooltip labels. Styles only;
 * the figures come from the chart data (html/html_data.ts).
 *
 * @module
 */
import type { PercentileSeries, SloMarker, TimelineSeries } from "./run_page_data.ts";
import type {
  AxisOptions,
  ChartGlobal,
  Dataset,
  ScaleLike,
  TooltipItem,
} from "./client_globals.ts";
import { chartDefaults, fmtMs, fmtRate, pageElement } from "./chart_kit.ts";

/** chart.js's defaults as the run and history pages set them: muted text, the page's font. */
export function styledDefaults(): ChartGlobal["defaults"] {
  const defaults = chartDefaults();
  defaults.color = "#495057";
  defaults.font.family = "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif";
  defaults.plugins.legend.labels.boxHeight = 2;
  return defaults;
}

/**
 * The page's `log-latency` checkbox: whether latency axes are logarithmic now (yes without the
 * checkbox), and `onSwitch` called with the new choice each time it is switched.
 */
export function logLatencySwitch(onSwitch: (log: boolean) => void): boolean {
  const box = pageElement("log-latency");
  if (box) {
    box.addEventListener("change", function () {
      onSwitch(box.checked === true);
    });
  }
  return !box || box.checked === true;
}

/** Each series role's colour. */
export const COLORS: Record<string, string> = {
  response: "#c2255c",
  service: "#1971c2",
  baselineResponse: "#868e96",
  baselineService: "#adb5bd",
  p50: "#1971c2",
  p99: "#e8590c",
  max: "#c2255c",
  serviceP99: "#74c0fc",
  ttfbP99: "#9c36b5",
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
  ttfbP99: [2, 2],
  intended: [7, 4],
};

/** An SLO marker's colour by its verdict. */
export const STATUS_COLORS: Record<SloMarker["status"], string> = {
  pass: "#2f9e44",
  fail: "#e03131",
  inconclusive: "#e8590c",
  invalid: "#7048e8",
  "not judged": "#868e96",
};

/** One value per interval, drawn at its midpoint: steps change at the interval boundaries. */
export const PER_INTERVAL: Dataset = { stepped: "middle" };

/** A series as a chart.js line, styled by its role; `extra` overrides. */
export function line(s: PercentileSeries | TimelineSeries, extra?: Dataset): Dataset {
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

/** Whether a log axis labels this tick: 1, 2 or 5 times a power of ten, rounded. */
function niceLogTick(v: number): boolean {
  if (!(v > 0)) return false;
  const m = Math.round(v / Math.pow(10, Math.floor(Math.log10(v) + 1e-9)));
  return m === 1 || m === 2 || m === 5;
}

/** The latency axis, logarithmic or linear. */
export function latencyAxis(log: boolean): AxisOptions {
  return {
    type: log ? "logarithmic" : "linear",
    beginAtZero: !log,
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

/** The time axis of the timeline charts: seconds since the start, to `endS`. */
export function timeAxis(endS: number): AxisOptions {
  return {
    type: "linear",
    min: 0,
    max: endS,
    title: { display: true, text: "seconds since start" },
  };
}

/** A tooltip line: the series and its rate. */
export function rateLabel(item: TooltipItem): string {
  return item.dataset.label + ": " + fmtRate(item.parsed.y);
}

/** A rate axis's ticks, labelled as rates (in `color` when given). */
export function rateTicks(color?: string): AxisOptions {
  const ticks: AxisOptions = {
    callback: function (v: number) {
      return fmtRate(v);
    },
  };
  if (color !== undefined) ticks.color = color;
  return ticks;
}
