/**
 * What a journey SLO (`journey.p99 < 200ms for "order"`) judges: the journey-time histograms of
 * the journey it names (or the plan's only one) in its bound stages, merged exactly, with the
 * journeys as its counts: every journey that ended is `completed`, one ended by a failed step is
 * an error, beyond every latency bound as a failed request is.
 *
 * @module
 */
import type { ParsedSlo } from "../../plan/mod.ts";
import { createHistogram } from "../../hdr/mod.ts";
import { decodeHistogram } from "../../hdr/mod.ts";
import { emptyCounts } from "../../model/mod.ts";
import type { StageResult } from "../../model/mod.ts";
import { boundStages, type SloScope } from "./slo_scope.ts";

/**
 * The journeys an SLO of the `journey` series binds to, or why the result holds none.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { journeyScope } from "./journey_scope.ts";
 * const scope = journeyScope([], { label: "order" });
 * assert.deepEqual(scope, { missing: "no stage to judge" });
 * ```
 */
export function journeyScope(
  stages: readonly StageResult[],
  slo: Pick<ParsedSlo, "atRatePerSec" | "label">,
): SloScope | { missing: string } {
  const bound = boundStages(stages, slo);
  if ("missing" in bound) return bound;
  const response = createHistogram();
  const counts = emptyCounts();
  let durationMs = 0;
  for (const s of bound) {
    const journeys = s.journeys ?? [];
    const j = slo.label === undefined
      ? (journeys.length === 1 ? journeys[0] : undefined)
      : journeys.find((x) => x.name === slo.label);
    if (j === undefined) {
      return {
        missing: slo.label === undefined
          ? journeys.length ? "several journeys: name one with `for`" : "no journey"
          : `no journey named "${slo.label}"`,
      };
    }
    response.add(decodeHistogram(j.journey.hdr));
    counts.scheduled += j.started;
    counts.sent += j.started;
    counts.completed += j.completed + j.failed;
    counts.ok += j.completed;
    if (j.failed > 0) counts.errors.other = (counts.errors.other ?? 0) + j.failed;
    durationMs += s.durationMs;
  }
  return {
    stageIndexes: bound.map((s) => s.index),
    response,
    counts,
    durationMs,
    intendedPerSec: counts.scheduled / (durationMs / 1000),
  };
}
