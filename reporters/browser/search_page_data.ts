/**
 * What the capacity search's page draws (`search.html`): the data `searchChartData()` of
 * `reporters/search/` builds from the search document. The browser side's contract:
 * `search_charts.ts` reads it.
 *
 * @module
 */

/** One step as a point: its rate, outcome and corrected response times (ms). */
export interface SearchPoint {
  ratePerSec: number;
  outcome: "pass" | "fail" | "inconclusive" | "limited";
  soak: boolean;
  p50Ms: number;
  p99Ms: number;
  p999Ms: number;
  maxMs: number;
}

/** A latency SLO drawn as a bound: at which series it applies and where. */
export interface SearchBound {
  text: string;
  /** The series it bounds: `p50`, `p99`, `p999` or `max`; others are drawn on no series. */
  series: "p50" | "p99" | "p999" | "max" | "other";
  boundMs: number;
}

/** Everything the page's script reads. */
export interface SearchChartData {
  points: SearchPoint[];
  /** The highest rate that held and the lowest that failed, when known. */
  bracket: { passPerSec?: number; failPerSec?: number };
  bounds: SearchBound[];
}
