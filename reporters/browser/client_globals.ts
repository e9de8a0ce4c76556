/**
 * The browser globals the report pages' scripts use (the DOM library cannot join Deno's in one
 * program: `deno check` checks every file in one program, and the DOM's `HeadersInit` and others
 * clash with Deno's): a page element, the document, a canvas's 2D context and the inlined
 * chart.js, each declared as far as the scripts use them. Types only; `chart_kit.ts` declares the
 * two globals with them.
 *
 * @module
 */

/** What the script uses of a page element. */
export interface PageElement {
  textContent: string | null;
  /** Inputs: a checkbox's state. */
  checked?: boolean;
  /** Inputs and selects: the chosen value. */
  value?: string;
  addEventListener(type: string, listener: () => void): void;
  setAttribute(name: string, value: string): void;
}

/** What the script uses of the page (`document`). */
export interface PageDocument {
  getElementById(id: string): PageElement | null;
  documentElement: PageElement;
}

/** What the script uses of a canvas's 2D context. */
export interface Canvas2D {
  font: string;
  fillStyle: string;
  strokeStyle: string;
  lineWidth: number;
  save(): void;
  restore(): void;
  fillRect(x: number, y: number, width: number, height: number): void;
  setLineDash(segments: number[]): void;
  beginPath(): void;
  moveTo(x: number, y: number): void;
  lineTo(x: number, y: number): void;
  stroke(): void;
  fillText(text: string, x: number, y: number): void;
  measureText(text: string): { width: number };
}

/** What the script uses of a chart.js chart (the page's own copy of chart.js, a global there). */
export interface ChartLike {
  data: { datasets: Dataset[] };
  options: { scales: Record<string, AxisOptions> };
  scales: Record<string, { getPixelForValue(value: number): number }>;
  chartArea: { left: number; right: number; top: number; bottom: number };
  ctx: Canvas2D;
  update(): void;
  /** The stage names the timeline charts drew: their text and box (set by the stage bands). */
  stageLabels?: Array<{ text: string; x: number; y: number; width: number }>;
  /** The windowed SLOs' failing spans the latency chart shaded: their SLO and box. */
  windowBoxes?: Array<{ slo: string; left: number; right: number }>;
  /** The history page's change points as drawn: kind, direction, their box (a step's is a line). */
  historyMarks?: Array<
    { kind: string; worse: boolean; direction: string; text: string; left: number; right: number }
  >;
  /** The history page's SLO bounds as drawn: their text and height (null: off the chart). */
  boundLines?: Array<{ text: string; y: number | null }>;
}

/** chart.js's options are wide; the script passes plain objects through. */
export type AxisOptions = Record<string, unknown>;
export type Dataset = Record<string, unknown>;
export type ChartConfig = Record<string, unknown>;
/** A chart.js tooltip item, as the callbacks read it. */
export interface TooltipItem {
  dataset: { label: string };
  parsed: { x: number; y: number };
}
/** A chart.js scale, as the callbacks read it. */
export interface ScaleLike {
  type: string;
  max: number;
  ticks: Array<{ value: number }>;
  /** The axis's length in pixels once laid out (0 before). */
  width: number;
  chart: { width: number };
}

/** The global chart.js exposes in the page. */
export interface ChartGlobal {
  new (canvas: PageElement, config: ChartConfig): ChartLike;
  defaults: {
    animation: boolean;
    maintainAspectRatio: boolean;
    color: string;
    font: { family: string };
    plugins: { legend: { labels: { boxHeight: number } } };
  };
}
