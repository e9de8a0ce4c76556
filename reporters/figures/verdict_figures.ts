/**
 * A verdict's figures as reports show them: measured value and bound in the verdict's unit, and
 * the margin as a signed percentage.
 *
 * @module
 */
import { formatMetric } from "../../runner/result/read/mod.ts";
import type { Verdict } from "../../runner/model/mod.ts";

/** Shown where a verdict has no such figure. */
export const NO_FIGURE = "-";

/** Shown for a latency figure that falls among failed requests (beyond every bound). */
export const CENSORED_FIGURE = "failed requests";

/** A verdict's figures, formatted. */
export interface VerdictFigures {
  measured: string;
  bound: string;
  /**
   * Headroom relative to the bound, signed: `+12.5%` passes, `-30%` fails by 30%; a figure over
   * twice an upper bound reads `19.1x the bound`.
   */
  margin: string;
}

/**
 * Formats a verdict's measured value, bound and margin (`-` for each one it lacks).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { verdictFigures } from "./verdict_figures.ts";
 * assert.deepEqual(
 *   verdictFigures({
 *     kind: "slo", name: "p99 < 2ms", status: "pass", stageIndexes: [0], message: "",
 *     measured: 1500, bound: 2000, unit: "us", margin: 0.25,
 *   }),
 *   { measured: "1.5ms", bound: "2ms", margin: "+25%" },
 * );
 * ```
 */
export function verdictFigures(v: Verdict): VerdictFigures {
  const metric = (value: number | undefined) =>
    typeof value === "number" && Number.isFinite(value) && v.unit !== undefined
      ? formatMetric(value, v.unit)
      : NO_FIGURE;
  return {
    measured: v.censored ? CENSORED_FIGURE : metric(v.measured),
    bound: metric(v.bound),
    margin: marginText(v),
  };
}

/**
 * The margin as people read it: a signed percentage of the bound, or, for a figure over twice an
 * upper bound, how many times the bound it is (`-1805.7%` reads as `19.1x the bound`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { marginText } from "./verdict_figures.ts";
 * assert.equal(marginText({ margin: -18.057, unit: "us" }), "19.1x the bound");
 * assert.equal(marginText({ margin: 0.25, unit: "us" }), "+25%");
 * ```
 */
export function marginText(v: Pick<Verdict, "margin" | "unit">): string {
  const m = v.margin;
  // An upper bound (every unit but throughput's): measured / bound = 1 − margin.
  if (typeof m === "number" && Number.isFinite(m) && m <= -1 && v.unit !== "per_sec") {
    return `${+(1 - m).toFixed(1)}x the bound`;
  }
  return signedPercent(m);
}

/**
 * A fraction as a signed percentage with one decimal at most: `+12.5%`, `-3%`, `+∞%`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { signedPercent } from "./verdict_figures.ts";
 * assert.equal(signedPercent(-0.125), "-12.5%");
 * ```
 */
export function signedPercent(fraction: number | null | undefined): string {
  if (typeof fraction !== "number" || Number.isNaN(fraction)) return NO_FIGURE;
  if (!Number.isFinite(fraction)) return fraction > 0 ? "+∞%" : "-∞%";
  const percent = +(fraction * 100).toFixed(1);
  return `${percent >= 0 ? "+" : ""}${percent === 0 ? 0 : percent}%`;
}
