/**
 * When two runs' stages compare: the same position in the plan, the same intended rate (from and
 * to) and the same duration. The regression gate compares only such stages, and a history holds
 * only runs whose measured stages all compare: a run's match with its history is found once
 * ({@linkcode matchStages}) and read by the gates and by filing the run.
 *
 * @module
 */
import { formatRatePerSec } from "../plan/mod.ts";
import type { StoredRunStage } from "./history_types.ts";

/** The parts of a stage that decide whether it compares with another (and name it). */
export type StageShape = Pick<
  StoredRunStage,
  "index" | "name" | "warmup" | "fromPerSec" | "toPerSec" | "durationMs"
>;

/**
 * Whether stage `a` of one run compares with stage `b` of another.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { stagesMatch } from "./stage_match.ts";
 * const s = { index: 1, name: "steady", warmup: false, fromPerSec: 100, toPerSec: 100, durationMs: 1000 };
 * assert.equal(stagesMatch(s, { ...s, name: "renamed" }), true);
 * assert.equal(stagesMatch(s, { ...s, durationMs: 2000 }), false);
 * ```
 */
export function stagesMatch(a: StageShape, b: StageShape): boolean {
  return a.index === b.index && a.fromPerSec === b.fromPerSec && a.toPerSec === b.toPerSec &&
    a.durationMs === b.durationMs;
}

/**
 * The measured (non-warmup) stages of `current` that no stage of `past` compares with, described
 * for a message ("steady (200/s for 10s)"); empty when every one has its match.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { unmatchedStages } from "./stage_match.ts";
 * const s = { index: 0, name: "steady", warmup: false, fromPerSec: 100, toPerSec: 100, durationMs: 1000 };
 * assert.deepEqual(unmatchedStages([s], [{ ...s, fromPerSec: 50, toPerSec: 50 }]), ["steady (100/s for 1s)"]);
 * ```
 */
export function unmatchedStages(
  current: readonly StageShape[],
  past: readonly StageShape[],
): string[] {
  return current
    .filter((s) => !s.warmup && !past.some((p) => stagesMatch(s, p)))
    .map(describeStage);
}

/**
 * How a run's measured stages meet its plan's stored runs, found once per judged run
 * ({@linkcode matchStages}) and carried by its judgement: the regression gate names the stages
 * `unmatched`, and filing the run starts a new history when it is not `sameAsNewest`.
 */
export interface StageMatch {
  /** The run's measured stages no stored run has, described ("steady (200/s for 10s)"). */
  unmatched: string[];
  /** The date of the newest stored run matched against; absent when none was stored. */
  newestDate?: string;
  /** The run measured the same stages as the newest stored run, warmups aside (true with none). */
  sameAsNewest: boolean;
}

/**
 * How `current`'s measured stages meet the stored `runs` (oldest first): those no stored run has,
 * and whether they are the newest run's measured stages, no more and no fewer.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { matchStages } from "./stage_match.ts";
 * const s = { index: 0, name: "steady", warmup: false, fromPerSec: 100, toPerSec: 100, durationMs: 1000 };
 * const longer = { ...s, durationMs: 2000 };
 * assert.deepEqual(matchStages([s], [{ date: "d1", stages: [s] }, { date: "d2", stages: [longer] }]), {
 *   unmatched: [],
 *   newestDate: "d2",
 *   sameAsNewest: false,
 * });
 * assert.deepEqual(matchStages([longer], []), { unmatched: ["steady (100/s for 2s)"], sameAsNewest: true });
 * ```
 */
export function matchStages(
  current: readonly StageShape[],
  runs: readonly { date: string; stages: readonly StageShape[] }[],
): StageMatch {
  const newest = runs.at(-1);
  return {
    unmatched: unmatchedStages(current, runs.flatMap((r) => r.stages)),
    ...(newest === undefined ? {} : { newestDate: newest.date }),
    sameAsNewest: newest === undefined ||
      (unmatchedStages(current, newest.stages).length === 0 &&
        unmatchedStages(newest.stages, current).length === 0),
  };
}

/** "steady (100/s for 1s)", "climb (100/s -> 1k/s over 10s)". */
export function describeStage(s: StageShape): string {
  const seconds = `${Number((s.durationMs / 1000).toFixed(3))}s`;
  const rate = s.fromPerSec === s.toPerSec
    ? `${formatRatePerSec(s.fromPerSec)} for ${seconds}`
    : `${formatRatePerSec(s.fromPerSec)} -> ${formatRatePerSec(s.toPerSec)} over ${seconds}`;
  return `${s.name} (${rate})`;
}
