/**
 * The data the capacity search's HTML page draws: each rate tried with its latencies and outcome,
 * the bracket the search found, and the latency SLOs as bounds. Pure: reads the search document.
 *
 * @module
 */
import type { SearchResult } from "../../runner/model/mod.ts";
import { storedSlos } from "../../runner/result/read/mod.ts";
import type { SearchBound, SearchChartData } from "../browser/mod.ts";

/**
 * Builds the chart data of a search.
 */
export function searchChartData(result: SearchResult): SearchChartData {
  const ms = (us: number) => us / 1000;
  const c = result.conclusion;
  const bounds = storedSlos(result.plan).flatMap(({ text, parsed }): SearchBound[] => {
    if (!parsed.ok || parsed.value.label !== undefined) return [];
    const m = parsed.value.metric;
    const series = m.kind === "max"
      ? "max"
      : m.kind !== "percentile"
      ? undefined
      : m.percentile === 50
      ? "p50"
      : m.percentile === 99
      ? "p99"
      : m.percentile === 99.9
      ? "p999"
      : "other";
    return series === undefined ? [] : [{ text, series, boundMs: parsed.value.bound / 1000 }];
  });
  return {
    points: result.steps.map((s) => ({
      ratePerSec: s.ratePerSec,
      outcome: s.outcome,
      soak: s.soak,
      p50Ms: ms(s.responseUs.p50),
      p99Ms: ms(s.responseUs.p99),
      p999Ms: ms(s.responseUs.p999),
      maxMs: ms(s.responseUs.max),
    })),
    bracket: {
      ...(c.ratePerSec === undefined ? {} : { passPerSec: c.ratePerSec }),
      ...(c.failPerSec === undefined ? {} : { failPerSec: c.failPerSec }),
    },
    bounds,
  };
}
