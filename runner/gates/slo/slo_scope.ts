/**
 * What an SLO judges: the stages it binds to (`at 20k/s`, or every non-warmup stage) and the
 * label it names, merged exactly into one histogram (the response times, or for `ttfb.` the times
 * to first byte) and one set of counts.
 *
 * @module
 */
import type { ParsedSlo } from "../../plan/mod.ts";
import { createHistogram, type Histogram } from "../../hdr/mod.ts";
import { decodeHistogram } from "../../hdr/mod.ts";
import { addCounts, emptyCounts } from "../../model/mod.ts";
import type { EncodedHistogram, LatencyPair, RequestCounts, StageResult } from "../../model/mod.ts";

/**
 * The latency a group holds for an SLO's series: the time to first byte for `ttfb` (undefined
 * where none was recorded: a result written before it, or no answer), else the response time.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { seriesHistogram } from "./slo_scope.ts";
 * const group = { response: { count: 2 }, service: { count: 2 } } as never;
 * assert.equal(seriesHistogram(group, "ttfb"), undefined);
 * assert.equal(seriesHistogram(group, undefined)?.count, 2);
 * ```
 */
export function seriesHistogram(
  group: LatencyPair,
  series: ParsedSlo["series"],
): EncodedHistogram | undefined {
  return series === "ttfb" ? group.ttfb : group.response;
}

/** The merged measurements an SLO is judged on. */
export interface SloScope {
  stageIndexes: number[];
  /** The series' latencies (response time, or time to first byte for `ttfb.`). */
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
  slo: Pick<ParsedSlo, "atRatePerSec" | "label" | "series">,
): SloScope | { missing: string } {
  const bound = boundStages(stages, slo);
  if ("missing" in bound) return bound;
  const response = createHistogram();
  const counts = emptyCounts();
  let durationMs = 0;
  let intended = 0;
  let seriesSeen = false;
  for (const s of bound) {
    const group = slo.label === undefined ? s : s.labels.find((l) => l.label === slo.label);
    if (group === undefined) return { missing: `no request is labelled "${slo.label}"` };
    const latency = seriesHistogram(group, slo.series);
    if (latency !== undefined) {
      seriesSeen = true;
      response.add(decodeHistogram(latency.hdr));
    }
    addCounts(counts, group.counts);
    durationMs += s.durationMs;
    intended += group.counts.scheduled;
  }
  // Answers without a first-byte time: a result written before tailgate recorded it.
  if (!seriesSeen && counts.ok > 0) return { missing: "no time to first byte (`ttfb`)" };
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
