/**
 * What the A/B page draws, pure: per measured stage, base's and head's response-time curves by
 * percentile (merged over the compared rounds), and per comparison each round's two figures.
 *
 * @module
 */
import { decodeHistogram } from "../../runner/hdr/mod.ts";
import type { AbResult } from "../../runner/model/mod.ts";
import { percentileAxis, percentileCurve } from "../page/mod.ts";
import type { AbChartData } from "../browser/mod.ts";

/**
 * Builds the page's data.
 */
export function abChartData(ab: AbResult): AbChartData {
  return {
    curves: ab.distributions.map((d) => {
      const base = decodeHistogram(d.base.hdr);
      const head = decodeHistogram(d.head.hdr);
      const axis = percentileAxis(Math.max(base.totalCount, head.totalCount));
      return {
        stageName: d.stageName,
        ticks: axis.ticks,
        maxX: axis.maxX,
        base: percentileCurve(base, axis),
        head: percentileCurve(head, axis),
      };
    }),
    rounds: ab.comparisons.map((c) => {
      const scale = c.unit === "us" ? 1 / 1000 : c.unit === "fraction" ? 100 : 1;
      return {
        name: c.name,
        unit: c.unit === "us" ? "ms" : c.unit === "fraction" ? "%" : "/s",
        base: c.base.map((x) => x * scale),
        head: c.head.map((x) => x * scale),
      };
    }),
  };
}
