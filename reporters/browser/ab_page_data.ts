/**
 * What the A/B page draws (`ab.html`): the data `abChartData()` of `reporters/ab/` builds from the
 * A/B document. The browser side's contract: `ab_charts.ts` reads it.
 *
 * @module
 */
import type { PercentileTick } from "../page/mod.ts";

/** Everything the page's script reads. */
export interface AbChartData {
  /** One view per measured stage: the two curves on a percentile axis (x: 1 / (1 − p); y: ms). */
  curves: Array<{
    stageName: string;
    ticks: PercentileTick[];
    maxX: number;
    base: Array<[number, number]>;
    head: Array<[number, number]>;
  }>;
  /** One view per comparison: each round's figure per side, in a display unit. */
  rounds: Array<{ name: string; unit: string; base: number[]; head: number[] }>;
}
