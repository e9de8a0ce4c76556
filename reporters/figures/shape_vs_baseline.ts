/**
 * The shape of each stage's response times against the baseline: the two-sample
 * Kolmogorov–Smirnov distance the regression gate computed (the largest gap between this run's and
 * the baseline's cumulative distributions), shown next to the percentile deltas. A change of shape
 * shows here even when the gated percentiles hold.
 *
 * @module
 */
import type { RunResult } from "../../runner/model/mod.ts";

/**
 * Stage index → KS distance against the baseline (all requests of the stage; stages the
 * regression gate did not compare are absent).
 */
export function ksByStage(result: RunResult): Map<number, number> {
  const out = new Map<number, number>();
  for (const v of result.verdicts) {
    if (v.kind !== "regression" || v.label !== undefined || v.ksDistance === undefined) continue;
    out.set(v.stageIndexes[0], v.ksDistance);
  }
  return out;
}

/**
 * One line per compared stage: "steady: KS 0.124 (12.4% of requests lie on the other side of some
 * latency than in the baseline)".
 */
export function shapeLines(result: RunResult): string[] {
  const ks = ksByStage(result);
  return result.stages.flatMap((s) => {
    const d = ks.get(s.index);
    return d === undefined ? [] : [
      `${s.name}: KS ${d.toFixed(3)} (the response-time distributions differ by up to ` +
      `${+(d * 100).toFixed(1)}% of requests at some latency)`,
    ];
  });
}
