/**
 * A verdict's figures as reports show them: measured value and bound in the verdict's unit, and
 * the margin as a signed percentage.
 *
 * @module
 */
import { formatMetric } from "../runner/gates/format_metric.ts";
import type { Verdict } from "../runner/model/run_result.ts";

/** Shown where a verdict has no such figure. */
export const NO_FIGURE = "-";

/** Shown for a latency figure that falls among failed requests (beyond every bound). */
export const CENSORED_FIGURE = "failed requests";

/** A verdict's figures, formatted. */
export interface VerdictFigures {
  measured: string;
  bound: string;
  /** Headroom relative to the bound, signed: `+12.5%` passes, `-30%` fails by 30%. */
  margin: string;
}

/**
 * Formats a verdict's measured value, bound and margin (`-` for each one it lacks).
 *
 * @example
 * ```ts
 * import { verdictFigures } from "./verdict_figures.ts";
 * verdictFigures({
 *   kind: "slo", name: "p99 < 2ms", status: "pass", stageIndexes: [0], message: "",
 *   measured: 1500, bound: 2000, unit: "us", margin: 0.25,
 * }); // { measured: "1.5ms", bound: "2ms", margin: "+25%" }
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
    margin: signedPercent(v.margin),
  };
}

/**
 * A fraction as a signed percentage with one decimal at most: `+12.5%`, `-3%`, `+∞%`.
 *
 * @example
 * ```ts
 * import { signedPercent } from "./verdict_figures.ts";
 * signedPercent(-0.125); // "-12.5%"
 * ```
 */
export function signedPercent(fraction: number | null | undefined): string {
  if (typeof fraction !== "number" || Number.isNaN(fraction)) return NO_FIGURE;
  if (!Number.isFinite(fraction)) return fraction > 0 ? "+∞%" : "-∞%";
  const percent = +(fraction * 100).toFixed(1);
  return `${percent >= 0 ? "+" : ""}${percent === 0 ? 0 : percent}%`;
}
