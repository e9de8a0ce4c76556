/**
 * Browser code: what every report page's script shares (the run report, the capacity search, the
 * A/B comparison). It reads the page's embedded chart data, reaches its elements and the inlined
 * chart.js, and formats the figures the charts label. The page globals are declared here only, so
 * the pages' own modules use them through these functions.
 *
 * Like every module in this folder it is type-checked TypeScript that the page embeds with its
 * types stripped (page_script.ts): only erasable TypeScript, imports only from this folder
 * (values) or anywhere (types).
 *
 * @module
 */
import type {
  AxisOptions,
  ChartConfig,
  ChartGlobal,
  ChartLike,
  PageDocument,
  PageElement,
  TooltipItem,
} from "./client_globals.ts";

declare const document: PageDocument;
declare const Chart: ChartGlobal;

/** The page's chart data: the JSON of its `tailgate-data` element. */
export function pageData<T>(): T {
  return JSON.parse(document.getElementById("tailgate-data")?.textContent ?? "null");
}

/** The page's element with this id, or null when the page has none. */
export function pageElement(id: string): PageElement | null {
  return document.getElementById(id);
}

/** Marks the page `data-charts="drawn"`: every chart is drawn (what the browser tests wait for). */
export function markDrawn(): void {
  document.documentElement.setAttribute("data-charts", "drawn");
}

/** Draws a chart.js chart into the canvas. */
export function newChart(canvas: PageElement, config: ChartConfig): ChartLike {
  return new Chart(canvas, config);
}

/** chart.js's defaults every page sets: drawn at once (no animation), filling its box. */
export function chartDefaults(): ChartGlobal["defaults"] {
  Chart.defaults.animation = false;
  Chart.defaults.maintainAspectRatio = false;
  return Chart.defaults;
}

/**
 * The value to four significant digits.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { round4 } from "./chart_kit.ts";
 * assert.equal(round4(1234.5678), 1235);
 * ```
 */
export function round4(v: number): number {
  return Number(v.toPrecision(4));
}

/**
 * A latency in milliseconds as the charts label it: `us` below 1 ms, `s` from 1 s, "–" for none.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { fmtMs } from "./chart_kit.ts";
 * assert.equal(fmtMs(0.25), "250us");
 * assert.equal(fmtMs(1500), "1.5s");
 * ```
 */
export function fmtMs(v: number | null | undefined): string {
  if (v === null || v === undefined) return "–";
  const a = Math.abs(v);
  if (a === 0) return "0ms";
  if (a < 1) return round4(v * 1000) + "us";
  if (a < 1000) return round4(v) + "ms";
  return round4(v / 1000) + "s";
}

/**
 * A rate in requests per second as the charts label it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { fmtRate } from "./chart_kit.ts";
 * assert.equal(fmtRate(25000), "25k/s");
 * ```
 */
export function fmtRate(v: number): string {
  if (v >= 1e6) return round4(v / 1e6) + "M/s";
  if (v >= 1e3) return round4(v / 1e3) + "k/s";
  return round4(v) + "/s";
}

/**
 * Whether a log axis labels this tick: a round value (its leading digit alone, as 200 or 3000)
 * or, with `oneTwoFive`, only 1, 2 and 5 times a power of ten.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { niceLogValue } from "./chart_kit.ts";
 * assert.equal(niceLogValue(300, false), true);
 * assert.equal(niceLogValue(300, true), false);
 * ```
 */
export function niceLogValue(v: number, oneTwoFive: boolean): boolean {
  const mantissa = v / Math.pow(10, Math.floor(Math.log10(v) + 1e-9));
  const m = Math.round(mantissa);
  return Math.abs(mantissa - m) < 1e-6 && (!oneTwoFive || m === 1 || m === 2 || m === 5);
}

/** A tooltip line: the series and its latency. */
export function msLabel(item: TooltipItem): string {
  return item.dataset.label + ": " + fmtMs(item.parsed.y);
}

/** The log axis of corrected response times, labelled at 1, 2 and 5 times a power of ten. */
export function responseTimeAxis(): AxisOptions {
  return {
    type: "logarithmic",
    title: { display: true, text: "response time (corrected)" },
    ticks: {
      callback: function (v: number) {
        return niceLogValue(v, true) ? fmtMs(v) : "";
      },
    },
  };
}
