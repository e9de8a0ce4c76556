/**
 * What an SLO judges: the stages it binds to (`at 20k/s`, or every non-warmup stage) and the
 * label it names, merged exactly into one histogram and one set of counts.
 *
 * @module
 */
import type { ParsedSlo } from "../../plan/slo/mod.ts";
import { createHistogram, type Histogram } from "../../hdr/mod.ts";
import { decodeHistogram } from "../../hdr/hdr_codec.ts";
import { addCounts, emptyCounts } from "../../model/request_counts.ts";
import type { RequestCounts, StageResult } from "../../model/run_result.ts";

/** The merged measurements an SLO is judged on. */
export interface SloScope {
  stageIndexes: number[];
  response: Histogram;
  counts: RequestCounts;
  /** Total length of the bound stages, for throughput. */
  durationMs: number;
  /** The intended rate of the bound stages (requests per second over their length). */
  intendedPerSec: number;
}

/**
 * Gathers the stages and label an SLO binds to. Returns a reason when the result does not hold
 * them (a label or rate that no stage has).
 */
export function sloScope(
  stages: readonly StageResult[],
  slo: Pick<ParsedSlo, "atRatePerSec" | "label">,
): SloScope | { missing: string } {
  const bound = boundStages(stages, slo);
  if ("missing" in bound) return bound;
  const response = createHistogram();
  const counts = emptyCounts();
  let durationMs = 0;
  let intended = 0;
  for (const s of bound) {
    const group = slo.label === undefined ? s : s.labels.find((l) => l.label === slo.label);
    if (group === undefined) return { missing: `no request is labelled "${slo.label}"` };
    response.add(decodeHistogram(group.response.hdr));
    addCounts(counts, group.counts);
    durationMs += s.durationMs;
    intended += group.counts.scheduled;
  }
  return {
    stageIndexes: bound.map((s) => s.index),
    response,
    counts,
    durationMs,
    intendedPerSec: intended / (durationMs / 1000),
  };
}

/** The stages an SLO binds to (`at 20k/s`, or every non-warmup stage), or why there is none. */
export function boundStages(
  stages: readonly StageResult[],
  slo: Pick<ParsedSlo, "atRatePerSec">,
): StageResult[] | { missing: string } {
  const bound = stages.filter((s) =>
    !s.warmup &&
    (slo.atRatePerSec === undefined ||
      (s.kind === "constant" && Math.abs(s.fromPerSec - slo.atRatePerSec) <= 1e-9 * s.fromPerSec))
  );
  if (bound.length > 0) return bound;
  return {
    missing: slo.atRatePerSec === undefined ? "no stage to judge" : "no stage at that rate",
  };
}
